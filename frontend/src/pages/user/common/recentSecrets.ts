// Secrets of API keys created or rotated in this tab, kept in memory only
// (never in storage): the try-it console offers them so a user who has just
// created a key need not paste its secret. A reload forgets them.
const secrets = new Map<string, string>();

export function rememberSecret(key: string, secret: string) {
  secrets.set(key, secret);
}

export function recentSecret(key: string): string | undefined {
  return secrets.get(key);
}

export function forgetSecrets() {
  secrets.clear();
}
