/**
 * The trait key receivers see for an audience or computed trait: the snake_case form of its
 * name, as Segment documents for audiences. The rules, in this order (docs/behaviour.md,
 * "Audiences"):
 *  1. split on anything that is not a letter or a digit (emoji and punctuation included);
 *  2. split between letters and digits: newUsers2024 → new_users_2024, ios14 → ios_14;
 *  3. inside letters, split before a capital that follows two or more lowercase letters:
 *     newUsers → new_users, myAPIKey → my_api_key; so iOS, iPhone and eBay stay whole;
 *  4. split before the last capital of a capital run when two or more lowercase letters follow
 *     it: HTTPServer → http_server; so IDs and URLs stay whole;
 *  5. strip accents (é → e; letters with no decomposition, such as ø or ß, are kept), lower case,
 *     join with `_`.
 * Accents are the combining diacritics of Latin, Greek and Cyrillic; other scripts' marks (ザ's
 * dakuten, Devanagari vowel signs) are part of their letters and stay. Accents are stripped first
 * in the code: an accented letter keeps its case, so rules 2-4 do not change.
 */
export function snakeCase(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]+/g, '')
    .normalize('NFC')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .flatMap((word) => word.split(WORD_BOUNDARY))
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase())
    .join('_');
}

/** Rules 2, 3 and 4 as zero-width split points inside a run of letters and digits. */
const WORD_BOUNDARY = new RegExp(
  [
    '(?<=\\p{L})(?=\\p{N})|(?<=\\p{N})(?=\\p{L})', // 2: letters | digits
    '(?<=\\p{Ll}{2})(?=\\p{Lu})', // 3: two lowercase | capital
    '(?<=\\p{Lu})(?=\\p{Lu}\\p{Ll}{2})', // 4: capital run | its last capital + two lowercase
  ].join('|'),
  'u',
);
