/**
 * Logging in to the dashboard: a code works once and for two minutes; a session needs both its
 * cookie and its page secret; sessions and codes are bounded; idle sessions end.
 */
import { describe, expect, it } from 'vitest';
import { COOKIE_NAME, DashboardSessions, cookieValue } from '../../src/http/dashboard/dashboard-sessions.js';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('dashboard sessions', () => {
  it('a code is redeemed once; the session needs its cookie and its secret together', () => {
    const sessions = new DashboardSessions();
    const code = sessions.issueCode();
    const session = sessions.redeem(code);
    expect(session).toBeDefined();
    expect(sessions.redeem(code)).toBeUndefined();
    const cookie = `other=1; ${COOKIE_NAME}=${session!.id}`;
    expect(sessions.verify(cookie, session!.secret)).toBe(true);
    expect(sessions.verify(cookie, undefined)).toBe(false);
    expect(sessions.verify(cookie, 'x'.repeat(session!.secret.length))).toBe(false);
    expect(sessions.verify(undefined, session!.secret)).toBe(false);
    expect(sessions.verify(`${COOKIE_NAME}=${session!.secret}`, session!.id)).toBe(false);
    expect(sessions.verify(cookie, [session!.secret, session!.secret])).toBe(false);
  });

  it('a code expires after two minutes; a session after twelve idle hours', () => {
    const time = clock();
    const sessions = new DashboardSessions(time.now);
    const late = sessions.issueCode();
    time.advance(2 * 60_000 + 1);
    expect(sessions.redeem(late)).toBeUndefined();
    const session = sessions.redeem(sessions.issueCode())!;
    const cookie = `${COOKIE_NAME}=${session.id}`;
    time.advance(11 * 60 * 60_000);
    expect(sessions.verify(cookie, session.secret)).toBe(true);
    time.advance(12 * 60 * 60_000 + 1);
    expect(sessions.verify(cookie, session.secret)).toBe(false);
  });

  it('holds() says whether a session is live without counting as a use of it', () => {
    const time = clock();
    const sessions = new DashboardSessions(time.now);
    const session = sessions.redeem(sessions.issueCode())!;
    const cookie = `${COOKIE_NAME}=${session.id}`;
    time.advance(11 * 60 * 60_000);
    expect(sessions.holds(cookie, session.secret)).toBe(true);
    expect(sessions.holds(cookie, 'x'.repeat(session.secret.length))).toBe(false);
    time.advance(60 * 60_000 + 1);
    // Twelve idle hours since its last use: holding it meanwhile kept nothing alive.
    expect(sessions.holds(cookie, session.secret)).toBe(false);
  });

  it('keeps at most 16 codes and 32 sessions, dropping the oldest and least recently used', () => {
    const sessions = new DashboardSessions();
    const codes = Array.from({ length: 20 }, () => sessions.issueCode());
    expect(sessions.redeem(codes[0]!)).toBeUndefined();
    const kept = sessions.redeem(codes[19]!)!;
    const others = Array.from({ length: 40 }, () => sessions.redeem(sessions.issueCode())!);
    expect(sessions.verify(`${COOKIE_NAME}=${kept.id}`, kept.secret)).toBe(false);
    expect(sessions.verify(`${COOKIE_NAME}=${others[39]!.id}`, others[39]!.secret)).toBe(true);
  });

  it('its cookie is HttpOnly, SameSite=Strict and scoped to /dashboard', () => {
    const header = DashboardSessions.cookie('abc');
    expect(header).toMatch(/^tether_dashboard=abc; /);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain('Path=/dashboard');
    expect(cookieValue('a=1; tether_dashboard=xyz; b=2', COOKIE_NAME)).toBe('xyz');
    expect(cookieValue('tether_dashboardx=1', COOKIE_NAME)).toBeUndefined();
  });
});
