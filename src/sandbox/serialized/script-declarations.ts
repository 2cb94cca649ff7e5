/**
 * The declarations of a C# script that Unity's serializer cares about, read without a C#
 * compiler: enums with their members, and classes and structs with their base, whether they
 * are [Serializable], and the fields Unity would serialize (public ones not [NonSerialized],
 * and [SerializeField] ones; never static, const or readonly), each with its type's text and
 * its initializer's. Enough for simple MonoBehaviours and ScriptableObjects; what it cannot
 * read it leaves out, as Unity leaves out what it cannot serialize.
 */

export interface DeclaredField {
  name: string;
  typeText: string;
  initializer?: string;
  /** [SerializeReference]: a managed reference, which the tools list but do not read. */
  managedReference: boolean;
}

export interface DeclaredClass {
  name: string;
  fullName: string;
  kind: 'class' | 'struct';
  base?: string;
  serializable: boolean;
  fields: DeclaredField[];
}

export interface ScriptDeclarations {
  classes: DeclaredClass[];
  enums: Map<string, string[]>;
  /** String and character literals, which the texts above hold as "§n" (so braces and quotes in them confuse nothing). */
  literals: string[];
}

const MODIFIERS = new Set([
  'public',
  'private',
  'protected',
  'internal',
  'static',
  'readonly',
  'const',
  'volatile',
  'new',
  'override',
  'virtual',
  'abstract',
  'extern',
  'unsafe',
  'event',
  'fixed',
  'required',
]);

export function readDeclarations(source: string): ScriptDeclarations {
  const { text, literals } = withoutCommentsAndLiterals(source);
  const namespace = /\bnamespace\s+([\w.]+)/.exec(text)?.[1];
  const enums = new Map<string, string[]>();
  for (const match of text.matchAll(/\benum\s+(\w+)\s*(?::\s*[\w.]+\s*)?\{([^}]*)\}/g)) {
    const members = (match[2] ?? '')
      .split(',')
      .map(
        (m) =>
          m
            .split('=')[0]
            ?.replace(/\[[^\]]*\]/g, '')
            .trim() ?? '',
      )
      .filter((m) => /^\w+$/.test(m));
    enums.set(match[1] as string, members);
  }
  const classes: DeclaredClass[] = [];
  const header =
    /((?:\[[^\]]*\]\s*)*)(?:(?:public|internal|private|protected|sealed|abstract|static|partial|readonly)\s+)*(class|struct)\s+(\w+)(\s*<[^>{]*>)?\s*(?::\s*([^{]+?))?\s*(?:where\s[^{]*)?\{/g;
  for (const match of text.matchAll(header)) {
    if (match[4]) continue; // an open generic type: Unity serializes none.
    const open = (match.index ?? 0) + match[0].length - 1;
    const name = match[3] as string;
    const base = match[5]
      ?.split(',')[0]
      ?.trim()
      .replace(/^UnityEngine\./, '');
    classes.push({
      name,
      fullName: namespace ? `${namespace}.${name}` : name,
      kind: match[2] as 'class' | 'struct',
      ...(base ? { base } : {}),
      serializable: /\b(System\.)?Serializable\b/.test(match[1] ?? ''),
      fields: fieldsIn(text, open),
    });
  }
  return { classes, enums, literals };
}

/** The serialized fields among the members of the body whose "{" is at `open`. */
function fieldsIn(text: string, open: number): DeclaredField[] {
  const fields: DeclaredField[] = [];
  let depth = 0;
  let statement = '';
  let skipping = false;
  for (let i = open + 1; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '{') {
      // An initializer's braces ("= { 1, 2 }", "new List<int> { 1 }") belong to the statement; a method's body ends it.
      if (depth === 0 && !isInitializer(statement)) skipping = true;
      depth++;
    } else if (char === '}') {
      if (depth === 0) break;
      depth--;
      if (depth === 0 && skipping) {
        skipping = false;
        statement = '';
        continue;
      }
    }
    if (skipping) continue;
    if (char === ';' && depth === 0) {
      fields.push(...declaredFields(statement));
      statement = '';
    } else {
      statement += char;
    }
  }
  return fields;
}

/** Whether a statement so far is a field with its initializer (not a method whose parameters have defaults). */
function isInitializer(statement: string): boolean {
  const equals = statement.indexOf('=');
  return equals >= 0 && !statement.slice(0, equals).includes('(');
}

function declaredFields(statement: string): DeclaredField[] {
  let rest = statement.trim();
  const attributes: string[] = [];
  for (let match = /^\[([^\]]*)\]\s*/.exec(rest); match; match = /^\[([^\]]*)\]\s*/.exec(rest)) {
    attributes.push(
      ...(match[1] as string).split(',').map((a) =>
        a
          .trim()
          .replace(/\(.*$/s, '')
          .replace(/^UnityEngine\.|^System\./, ''),
      ),
    );
    rest = rest.slice(match[0].length);
  }
  const modifiers = new Set<string>();
  for (let word = /^(\w+)\s+/.exec(rest); word && MODIFIERS.has(word[1] as string); word = /^(\w+)\s+/.exec(rest)) {
    modifiers.add(word[1] as string);
    rest = rest.slice(word[0].length);
  }
  const declaration = /^([\w.]+(?:\s*<[^=;(]*>)?(?:\s*\[\s*\])*)\s+(\w+)\s*(?:=\s*([\s\S]*))?$/.exec(rest);
  if (!declaration || /=>/.test(rest)) return [];
  if (['static', 'const', 'readonly', 'event', 'abstract', 'extern', 'fixed'].some((m) => modifiers.has(m))) return [];
  const has = (attribute: string): boolean => attributes.includes(attribute) || attributes.includes(`${attribute}Attribute`);
  const managedReference = has('SerializeReference');
  const serialized = ((modifiers.has('public') && !has('NonSerialized')) || has('SerializeField') || managedReference) && !has('NonSerialized');
  if (!serialized) return [];
  const typeText = (declaration[1] as string).replace(/\s+/g, '');
  const declarators = [`${declaration[2]}${declaration[3] === undefined ? '' : `=${declaration[3]}`}`];
  // "public int a = 1, b = 2;": the first declarator's initializer holds the others.
  const parts = splitTopLevel(declarators[0] as string, ',');
  return parts.flatMap((part) => {
    const match = /^\s*(\w+)\s*(?:=\s*([\s\S]*))?$/.exec(part);
    if (!match) return [];
    return [{ name: match[1] as string, typeText, ...(match[2] === undefined ? {} : { initializer: match[2].trim() }), managedReference }];
  });
}

/** `text` split at `separator`s outside (), [], {} and <>. */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if ('([{<'.includes(char)) depth++;
    else if (')]}>'.includes(char)) depth--;
    if (char === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (current.trim() !== '') parts.push(current);
  return parts;
}

/** The source with comments blanked and each string or character literal replaced by "§n". */
function withoutCommentsAndLiterals(source: string): { text: string; literals: string[] } {
  const literals: string[] = [];
  let text = '';
  let i = 0;
  while (i < source.length) {
    const char = source[i] as string;
    const next = source[i + 1];
    if (char === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
      text += ' ';
    } else if (char === '"' || char === "'" || (char === '@' && next === '"') || (char === '$' && next === '"')) {
      const verbatim = char === '@';
      const quote = char === "'" ? "'" : '"';
      let j = char === '"' || char === "'" ? i + 1 : i + 2;
      let value = '';
      while (j < source.length) {
        const c = source[j] as string;
        if (c === quote && verbatim && source[j + 1] === quote) {
          value += quote;
          j += 2;
        } else if (c === quote) {
          break;
        } else if (c === '\\' && !verbatim) {
          value += unescape(source[j + 1] ?? '');
          j += 2;
        } else {
          value += c;
          j++;
        }
      }
      text += `${quote}§${literals.length}${quote}`;
      literals.push(value);
      i = j + 1;
    } else {
      text += char;
      i++;
    }
  }
  return { text, literals };
}

function unescape(char: string): string {
  return ({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[char] ?? char;
}
