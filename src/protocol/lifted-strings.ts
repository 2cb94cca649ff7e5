/**
 * Long strings lifted out of a received frame, so that a relay can pass them on without
 * decoding and re-encoding them.
 *
 * A 50 MB tool result is one JSON string. A relay that parses it and serializes it again pays
 * a UTF-8 decode, a JSON.parse, a JSON.stringify and an encode, and holds the text several
 * times over. Instead, a reader may cut each long string literal out of the frame (the bytes
 * between and including its quotes, which are already valid JSON) and parse the rest with a
 * short placeholder string in its place. Whoever writes the value out as JSON again puts the
 * literal's bytes back where the placeholder is; whoever needs the real strings calls
 * `materialize`.
 *
 * The connection keeps placeholders only in the result of a request that asked for them
 * (`keepLiftedStrings`); everything else it receives is materialized before anyone sees it.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class LiftedStrings {
  /** @param literals JSON string literals (quotes included) by the placeholder that stands for each. */
  constructor(private readonly literals: ReadonlyMap<string, Uint8Array>) {}

  /** The literal a placeholder stands for (its JSON text, quotes included). */
  literal(placeholder: string): Uint8Array | undefined {
    return this.literals.get(placeholder);
  }

  /** A copy of `value` with every placeholder replaced by the string it stands for. */
  materialize<T>(value: T): T {
    return this.replace(value) as T;
  }

  private replace(value: unknown): unknown {
    if (typeof value === 'string') {
      const literal = this.literals.get(value);
      return literal === undefined ? value : (JSON.parse(utf8.decode(literal)) as string);
    }
    if (Array.isArray(value)) return value.map((item) => this.replace(item));
    if (value !== null && typeof value === 'object') {
      // fromEntries defines own properties, as JSON.parse does: assigning out["__proto__"]
      // would set the copy's prototype instead and lose the key.
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.replace(item)]));
    }
    return value;
  }
}

const attached = new WeakMap<object, LiftedStrings>();

/** Marks `value` as holding placeholders of `lifted`. */
export function attachLiftedStrings<T>(value: T, lifted: LiftedStrings): T {
  if (value !== null && typeof value === 'object') attached.set(value, lifted);
  return value;
}

/** The lifted strings whose placeholders `value` holds, if any. */
export function liftedStringsOf(value: unknown): LiftedStrings | undefined {
  return value !== null && typeof value === 'object' ? attached.get(value) : undefined;
}

/**
 * Cuts a frame body into JSON text with placeholders plus the lifted literals. Returns
 * undefined when there is nothing to lift, or when the body is not well-formed enough to
 * lift safely: the caller then parses the whole body as usual (and reports its faults).
 */
export type StringLifter = (body: Uint8Array) => { text: string; lifted: LiftedStrings } | undefined;
