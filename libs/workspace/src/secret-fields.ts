import { isMask } from './masking';

type Plain = Record<string, unknown>;
type SecretMapper = (secret: string, path: string) => string;

/** The settings fields that hold a signing secret. */
const SETTINGS_SECRETS = ['sharedSecret', 'previousSecret'] as const;

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of a destination (in the workspace file's shape) with every secret field passed through
 * `map`: the shared secret, the previous secret being rotated out, and the value of every
 * static header. The rest is copied as is.
 * Sealing, opening and masking are all this one walk, so no secret field can be missed by one
 * of them.
 */
export function mapDestinationSecrets(destination: Plain, map: SecretMapper): Plain {
  const settings = destination.settings;
  if (!isPlain(settings)) return { ...destination };
  const next: Plain = { ...settings };
  for (const field of SETTINGS_SECRETS) {
    const secret = settings[field];
    if (typeof secret === 'string') next[field] = map(secret, `settings.${field}`);
  }
  if (Array.isArray(settings.webhooks)) {
    next.webhooks = settings.webhooks.map((target: unknown, i) =>
      isPlain(target) && isPlain(target.headers)
        ? { ...target, headers: mapHeaders(target.headers, `settings.webhooks[${i}].headers`, map) }
        : target,
    );
  }
  return { ...destination, settings: next };
}

function mapHeaders(headers: Plain, path: string, map: SecretMapper): Plain {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      typeof value === 'string' ? map(value, `${path}.${name}`) : value,
    ]),
  );
}

/**
 * A client that read a masked resource and sends it back unchanged means "keep the secret": each
 * masked secret in `incoming` is replaced by the stored secret at the same place. A mask with
 * nothing stored at its place stays, and validation refuses it.
 */
export function keepMaskedSecrets(incoming: Plain, stored: Plain | undefined): Plain {
  if (!stored) return incoming;
  const storedSecrets = new Map<string, string>();
  mapDestinationSecrets(stored, (secret, path) => (storedSecrets.set(path, secret), secret));
  return mapDestinationSecrets(incoming, (secret, path) =>
    isMask(secret) ? (storedSecrets.get(path) ?? secret) : secret,
  );
}
