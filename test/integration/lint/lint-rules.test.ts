// The house lint rules (eslint.config.js) really fire: each planted violation is reported under its
// rule id, and its clean twin passes with no finding at all. The text is linted under the path of
// an existing shared/ file, so the shared/-only rules apply and the type-aware rules resolve
// against tsconfig.node.json without writing anything into the source tree.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** A real file of shared/: its text is replaced by the sample for the lint only. */
const SHARED_FILE = 'shared/util/shell.ts';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: `${ROOT}eslint.config.js`,
    // With CI=true typescript-eslint builds its programs once from the files on disk ("single
    // run"), so text linted under an existing file's path would be checked as that file's text.
    overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } },
  });
});

async function ruleIds(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${SHARED_FILE}` });
  if (!result) throw new Error('ESLint returned no result');
  return result.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

const cases: Array<{ name: string; rule: string; planted: string; clean: string }> = [
  {
    name: 'a regex that backtracks super-linearly on hostile input',
    rule: 'regexp/no-super-linear-backtracking',
    // `[\w ]*` and `\s*` both take the spaces: a long run of them without the "=" is quadratic.
    planted: 'export const isKeyLine = (line: string): boolean => /^[\\w ]*\\s*=$/.test(line);\n',
    clean: 'export const isKeyLine = (line: string): boolean => /^[\\w\\s]*=$/.test(line);\n',
  },
  {
    name: 'an unused variable',
    rule: '@typescript-eslint/no-unused-vars',
    planted: 'export function double(n: number): number {\n  const unused = n + 1;\n  return n * 2;\n}\n',
    clean: 'export function double(n: number): number {\n  return n * 2;\n}\n',
  },
  {
    name: 'a Node built-in imported into shared/',
    rule: 'no-restricted-imports',
    planted: "import { join } from 'node:path';\n\nexport const at = (a: string, b: string): string => join(a, b);\n",
    clean: "export const at = (a: string, b: string): string => `${a.replace(/\\/$/, '')}/${b}`;\n",
  },
];

describe('eslint.config.js on planted violations', () => {
  for (const c of cases) {
    it(`${c.name}: ${c.rule} fires`, async () => {
      expect(await ruleIds(c.planted)).toContain(c.rule);
    }, 60_000);

    it(`${c.name}: the clean twin has no finding`, async () => {
      expect(await ruleIds(c.clean)).toEqual([]);
    }, 60_000);
  }
});
