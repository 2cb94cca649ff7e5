/**
 * The manifest: every check of the suite, in the order they run. Checks that disturb the
 * host for longer (a domain reload) come last, so a failure there cannot spoil the others.
 */
import { callChecks } from './checks-calls.js';
import { cancelChecks } from './checks-cancel.js';
import { deadlineChecks } from './checks-deadline.js';
import { duplicateChecks } from './checks-duplicates.js';
import { evictionChecks } from './checks-eviction.js';
import { fairnessChecks } from './checks-fairness.js';
import { framingChecks } from './checks-framing.js';
import { handshakeChecks } from './checks-handshake.js';
import { hostStatusChecks } from './checks-host-status.js';
import { livenessChecks } from './checks-liveness.js';
import { progressChecks } from './checks-progress.js';
import { reattachChecks } from './checks-reattach.js';
import { reloadChecks } from './checks-reload.js';
import { securityChecks } from './checks-security.js';
import { statusChecks } from './checks-status.js';
import { toolChecks } from './checks-tools.js';
import type { Check } from './types.js';

export const CHECKS: readonly Check[] = [
  ...handshakeChecks,
  ...framingChecks,
  ...toolChecks,
  ...livenessChecks,
  ...callChecks,
  ...reattachChecks,
  ...duplicateChecks,
  ...statusChecks,
  ...hostStatusChecks,
  ...cancelChecks,
  ...deadlineChecks,
  ...progressChecks,
  ...fairnessChecks,
  ...evictionChecks,
  ...securityChecks,
  ...reloadChecks,
];
