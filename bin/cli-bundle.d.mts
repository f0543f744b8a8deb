/** bin/cli-bundle.mjs: the URL of the CLI's bundle under `root` while it is fresh, else null (run the sources). */
export function freshCliBundle(root: string, env?: NodeJS.ProcessEnv): string | null;
