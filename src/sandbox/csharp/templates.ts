/**
 * The C# files create_script starts from, as Unity's Create menu writes them (MonoBehaviour,
 * ScriptableObject) or as an editor window needs it; optionally inside a namespace. The Unity
 * package writes the same text (unity/Editor/Unity/Compiling/ScriptTemplates.cs):
 * unity/Tests~/fixtures/script-templates.json holds both sides to it.
 */

export const SCRIPT_TEMPLATES = ['MonoBehaviour', 'ScriptableObject', 'EditorWindow', 'class'] as const;
export type ScriptTemplate = (typeof SCRIPT_TEMPLATES)[number];

function body(template: ScriptTemplate, name: string): string[] {
  switch (template) {
    case 'MonoBehaviour':
      return [
        'using UnityEngine;',
        '',
        `public class ${name} : MonoBehaviour`,
        '{',
        '    // Start is called before the first frame update',
        '    void Start()',
        '    {',
        '    }',
        '',
        '    // Update is called once per frame',
        '    void Update()',
        '    {',
        '    }',
        '}',
      ];
    case 'ScriptableObject':
      return ['using UnityEngine;', '', `[CreateAssetMenu(fileName = "${name}", menuName = "ScriptableObjects/${name}")]`, `public class ${name} : ScriptableObject`, '{', '}'];
    case 'EditorWindow':
      return [
        'using UnityEditor;',
        'using UnityEngine;',
        '',
        `public class ${name} : EditorWindow`,
        '{',
        `    [MenuItem("Window/${name}")]`,
        '    public static void ShowWindow()',
        '    {',
        `        GetWindow<${name}>("${name}");`,
        '    }',
        '',
        '    void OnGUI()',
        '    {',
        '    }',
        '}',
      ];
    case 'class':
      return [`public class ${name}`, '{', '}'];
  }
}

/** Whether the template's script uses UnityEditor, which a player build does not have (EditorWindow). */
export function isEditorOnly(template: ScriptTemplate): boolean {
  return body(template, 'T').includes('using UnityEditor;');
}

/**
 * Whether a folder of `path` ("Assets/.../X.cs") is named Editor, which puts the script in
 * Unity's editor assembly. Any case: Unity lowercases the path before it looks for "/editor/"
 * (EditorBuildRules in its C# reference source). The Unity package's ScriptTemplates.InEditorFolder.
 */
export function inEditorFolder(path: string): boolean {
  return path
    .split('/')
    .slice(0, -1)
    .some((folder) => folder.toLowerCase() === 'editor');
}

/** Where an editor-only script named like `path` compiles into the editor assembly: "Assets/Editor/X.cs". */
export function inAssetsEditor(path: string): string {
  return `Assets/Editor/${path.slice(path.lastIndexOf('/') + 1)}`;
}

/** The file's text: the template for `name`, inside `namespace` when one is given ("\n" line ends). */
export function scriptFromTemplate(template: ScriptTemplate, name: string, namespace?: string): string {
  const lines = body(template, name);
  if (!namespace) return `${lines.join('\n')}\n`;
  // The usings stay above the namespace; the declaration goes inside it, indented.
  const firstDeclaration = lines.findIndex((line) => line !== '' && !line.startsWith('using '));
  const usings = lines.slice(0, firstDeclaration);
  const inside = lines.slice(firstDeclaration).map((line) => (line === '' ? '' : `    ${line}`));
  return `${[...usings, `namespace ${namespace}`, '{', ...inside, '}'].join('\n')}\n`;
}
