/**
 * The trait key receivers see for an audience or computed trait: the snake_case form of its
 * name (seed: "the property name is the snake_case form of the audience name").
 *
 * Rules: accents are dropped (é → e; letters with no decomposition, such as ø or ß, are kept);
 * camelCase and acronym boundaries split words (highValue → high_value, VIPUsers → vip_users);
 * any run of characters that is not a letter or digit separates words and leading/trailing
 * separators vanish; everything is lower case. A digit run stays attached to the letters before
 * it (ios14, b2b), since those are usually one token; a capital after digits starts a new word.
 */
export function snakeCase(name: string): string {
  const unaccented = name.normalize('NFKD').replace(/\p{M}+/gu, '');
  const split = unaccented
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
  return split
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase())
    .join('_');
}
