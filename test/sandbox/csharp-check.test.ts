/**
 * The sandbox's C# checker (src/sandbox/csharp/): what it reports, where (Roslyn's codes, 1-based
 * line and column), and that it never throws nor places a message outside the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSource } from '../../src/sandbox/csharp/check-source.js';
import { LineMap, formatCompilerMessage, toCompilerMessage } from '../../src/sandbox/csharp/diagnostics.js';

/** "line,column code" for each diagnostic, e.g. "3,14 CS1002". */
function problems(text: string): string[] {
  return checkSource(text).diagnostics.map((d) => `${d.line},${d.column} ${d.code}`);
}

const PLAYER = `using UnityEngine;
using System.Linq;

namespace Game
{
    [RequireComponent(typeof(Rigidbody))]
    public class Player : MonoBehaviour
    {
        [SerializeField] private float speed = 5f;
        [Header("Jump")]
        [SerializeField]
        private float jump = 2f;
        public int Health { get; private set; } = 100;
        public event System.Action Died;
        private readonly int[] values = { 1, 2, 3 };
        public string Label => $"Player {speed:F1} {(jump > 1 ? "high" : "low")} {{literal}}";
        private static readonly string Folder = @"C:\\Games\\""Saves""";

        public Player() { }

        void Update()
        {
            var move = Input.GetAxis("Horizontal") * speed;
            if (move > 0)
                transform.Translate(move, 0, 0);
            else if (move < 0) { transform.Translate(-move, 0, 0); }
            else
            {
                Debug.Log('x');
            }
            var high = from v in values
                       where v > 1
                       select v;
            foreach (var v in high) Debug.Log(v);
            switch (Health)
            {
                case 0:
                    Died?.Invoke();
                    break;
                case int h when h > 50:
                {
                    break;
                }
                default:
                    break;
            }
            System.Action log = () =>
            {
                Debug.Log("lambda");
            };
            int Twice(int x) => x * 2;
            void Reset()
            {
                return;
            }
            try { Reset(); } catch { } finally { }
            do { move++; } while (move < 3);
            var list = new System.Collections.Generic.List<int>
            {
                1, 2,
            };
            var state = Health switch
            {
                0 => "dead",
                _ => "alive",
            };
        }
    }

    public enum State { Idle, Running = 2 }
    public struct Point { public int X, Y; }
    public record Score(int Value);
    public delegate void Handler(int x);
    public interface IThing<T> where T : class, new() { void Do(); }
}
`;

describe('the C# checker', () => {
  it('finds nothing wrong in ordinary Unity code, and lists the types it declares', () => {
    const { diagnostics, types } = checkSource(PLAYER);
    expect(diagnostics).toEqual([]);
    expect(types.map((t) => `${t.container}:${t.name}/${t.arity}`)).toEqual(['Game:Player/0', 'Game:State/0', 'Game:Point/0', 'Game:Score/0', 'Game:Handler/0', 'Game:IThing/1']);
  });

  it('places a missing ";" right after the token that lacks it, in members and statements', () => {
    const text = ['public class A', '{', '    int x = 5', '    public int y;', '    void M()', '    {', '        var a = 1', '        var b = 2;', '        Debug.Log(a)', '    }', '}', ''].join('\n');
    expect(problems(text)).toEqual(['3,14 CS1002', '7,18 CS1002', '9,21 CS1002']);
  });

  it('says where a brace is missing or extra', () => {
    expect(problems('public class A\n{\n    void M()\n    {\n        if (true) {\n    }\n}\n')).toEqual(['7,2 CS1513']);
    expect(problems('class A { void M() {\n')).toEqual(['1,21 CS1513', '1,21 CS1513']);
    expect(problems('public class A\n{\n}\n}\n')).toEqual(['4,1 CS1022']);
    expect(problems('class A { void M() { Foo(1; } }')).toEqual(['1,29 CS1026']);
    expect(problems('class A { int[] a = new int[2; }')).toEqual(['1,32 CS1003']);
  });

  it('reports unterminated strings, characters and comments where they start', () => {
    expect(problems('class A\n{\n    string s = "abc;\n}\n')).toContain('3,16 CS1010');
    expect(problems("class A { char c = 'ab'; char d = ''; }")).toEqual(['1,20 CS1012', '1,35 CS1011']);
    expect(problems('class A { string s = @"one\ntwo; }')).toContain('1,22 CS1039');
    expect(problems('class A { }\n/* never closed\n')).toEqual(['2,1 CS1035']);
    expect(problems('class A { string s = $"a {b} }"; }')).toEqual(['1,30 CS8086']);
    expect(problems('class A { string s = $"{(x ? "a" : "b")} {{ok}} {y:0.0}"; }')).toEqual([]);
  });

  it('refuses what cannot stand where it is', () => {
    expect(problems('public class A\n{\n    Debug.Log("hi");\n    Start() { }\n    x = 5;\n}\n')).toEqual(['3,14 CS1519', '4,5 CS1520', '5,7 CS1519']);
    expect(problems('namespace N\n{\n    void Foo() { }\n}\n')).toEqual(['3,5 CS0116']);
    expect(problems('void Foo() { }\nint x;\n')).toEqual(['1,1 CS8805']);
    expect(problems('namespace N;\npublic class A { }\n')).toEqual(['1,1 CS8773']);
    expect(problems('public class : MonoBehaviour { }\n')).toEqual(['1,14 CS1001']);
    expect(problems('public class A\npublic class B { }\n')).toEqual(['1,15 CS1514']);
    expect(problems('class A { }\nusing System;\n')).toEqual(['2,1 CS1529']);
  });

  it('follows the preprocessor: inactive lines unread, #warning a warning, #error an error', () => {
    const text = ['#if UNITY_EDITOR', 'using UnityEditor;', '#else', 'this is not code {{{', '#endif', '#warning check this', '#error stop', 'public class A { }', '#if FOO', ''].join('\n');
    const { diagnostics } = checkSource(text);
    expect(diagnostics.map((d) => `${d.line},${d.column} ${d.severity} ${d.code}: ${d.text}`)).toEqual([
      "6,1 warning CS1030: #warning: 'check this'",
      "7,1 error CS1029: #error: 'stop'",
      '10,1 error CS1027: #endif directive expected',
    ]);
    expect(problems('#define NEW\n#if NEW && !OLD\nclass A { }\n#elif\n#endif\n#endif\n')).toEqual(['4,1 CS1517', '6,1 CS1028']);
  });

  it('gives up on brackets nested thousands deep with an error, not a crash', () => {
    const deep = `class A { void M() { ${'{'.repeat(50_000)}${'}'.repeat(50_000)} } }`;
    expect(problems(deep)).toEqual(['1,1 CS8078']);
  });

  it("writes a message as Unity's console does", () => {
    const [first] = checkSource('class A { int x = 1 }').diagnostics;
    expect(formatCompilerMessage(toCompilerMessage('Assets/A.cs', first!))).toBe('Assets/A.cs(1,20): error CS1002: ; expected');
  });

  it('counts lines after \\r\\n, \\n and \\r alike', () => {
    const map = new LineMap('a\r\nb\nc\rd');
    expect([0, 3, 5, 7].map((offset) => map.position(offset))).toEqual([
      { line: 1, column: 1 },
      { line: 2, column: 1 },
      { line: 3, column: 1 },
      { line: 4, column: 1 },
    ]);
    expect(problems('class A\r\n{\r\n    int x = 5\r\n    int y;\r\n}\r\n')).toEqual(['3,14 CS1002']);
  });
});

/** Programs that are well formed by construction: members and statements from a small grammar. */
const statement = fc.constantFrom(
  'var a = 1;',
  'Debug.Log("x;{");',
  'if (a > 0) { a--; } else a++;',
  'foreach (var i in list) Use(i);',
  'return;',
  "char c = '}';",
  'Action f = () => { Go(); };',
  's = $"{a} {{";',
);
const member = fc.oneof(
  fc.constantFrom('int count = 3;', 'public string Name { get; set; } = "n";', '[SerializeField] private float speed;', 'public event Action Done;'),
  fc.array(statement, { maxLength: 5 }).map((body) => `void M() {\n${body.join('\n')}\n}`),
);
const program = fc.array(member, { maxLength: 6 }).map((members) => `namespace Game {\npublic class Thing : MonoBehaviour {\n${members.join('\n')}\n}\n}\n`);

describe('the C# checker on any text (properties)', () => {
  it('never throws, and places every message inside the text', () => {
    const csharpish = fc.string({
      maxLength: 120,
      unit: fc.constantFrom('{', '}', '(', ')', '[', ']', ';', '"', "'", '@', '$', '/', '*', '#', '\n', '\r', ' ', 'a', '1', '=', '>', '\\', ':', 'if', 'class', 'namespace'),
    });
    fc.assert(
      fc.property(fc.oneof(csharpish, csharpish, fc.string({ maxLength: 60, unit: 'grapheme' })), (text) => {
        const lines = new LineMap(text);
        const lengths = text.split(/\r\n|\n|\r/).map((line) => line.length);
        // A plain predicate: fast-check reports the smallest text whose message is out of place.
        return checkSource(text).diagnostics.every((d) => d.line >= 1 && d.line <= lines.lineCount && d.column >= 1 && d.column <= lengths[d.line - 1]! + 1);
      }),
      { numRuns: 1000 },
    );
  });

  it('finds nothing wrong in well-formed programs, and something once a brace or a ";" is taken out', () => {
    fc.assert(
      fc.property(program, fc.nat(), (text, pick) => {
        expect(checkSource(text).diagnostics).toEqual([]);
        // A ";" or "}" that ends a line; not the ";" of "return;" ("return" may take its value from the next line).
        const cut = (char: string): string | undefined => {
          const places = [...text.matchAll(new RegExp(`(?<!return)\\${char}(?=\\s*\\n)`, 'g'))].map((m) => m.index);
          if (places.length === 0) return undefined;
          const at = places[pick % places.length]!;
          return text.slice(0, at) + text.slice(at + 1);
        };
        for (const broken of [cut('}'), cut(';')]) if (broken !== undefined) expect(checkSource(broken).diagnostics.length).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  });
});
