// OpenSSH's glob patterns (match.c match_pattern(): `*` any run of characters, `?` exactly one),
// used by known_hosts host patterns (known-hosts.ts) and ssh_config Include file names
// (ssh-config.ts). Every other character stands for itself.

/** The pattern as an anchored RegExp (`flags` as RegExp takes them). */
export function sshGlobRegExp(pattern: string, flags?: string): RegExp {
  return new RegExp(
    '^' +
      pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.') +
      '$',
    flags,
  );
}
