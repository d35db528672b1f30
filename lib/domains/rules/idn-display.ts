/**
 * When a domain label is shown in Unicode, and when in punycode: the policy browsers apply so that one name
 * cannot pass for another (an IDN homograph), as Chromium's documents it (`chromium/src/docs/idn.md` in the Chromium source,
 * "Google Chrome's IDN policy", implemented in components/url_formatter/spoof_checks/idn_spoof_checker.cc),
 * on UTS #39 (Unicode Security Mechanisms) §5.1 Mixed-Script Detection, §5.2 Restriction-Level Detection
 * ("Highly Restrictive"), §5.3 Mixed-Number Detection and §4 whole-script confusables. Written with the Unicode
 * data JavaScript's regular expressions carry (Script_Extensions, XID_Continue); what needs data they do not
 * carry (UTS #39's identifier status and confusables tables, Chromium's top-domain skeletons and dangerous
 * patterns) is approximated or left out, as docs/api.md says. Pure.
 */

/** Why a label is shown in punycode rather than in Unicode. */
export type IdnWarning =
  /** Its punycode does not decode to a label IDNA takes (stored before punycode labels were checked). */
  | 'invalid_punycode'
  /** A character outside the identifier profile: not a letter, mark or digit of a recommended script. */
  | 'restricted_characters'
  /** Letters of scripts that UTS #39's "Highly Restrictive" level does not let mix (Latin with Cyrillic…). */
  | 'mixed_scripts'
  /** Digits of two numbering systems (`1` and `١`). */
  | 'mixed_numbers'
  /** Letters of one script that all look like Latin letters (`аррӏе`, Cyrillic), under a TLD not of that script. */
  | 'whole_script_confusable';

export const IDN_WARNINGS: readonly IdnWarning[] = [
  'invalid_punycode',
  'restricted_characters',
  'mixed_scripts',
  'mixed_numbers',
  'whole_script_confusable',
];

/**
 * The Recommended scripts of UAX #31 (Unicode Identifiers, Table 7), by their ISO 15924 codes: the scripts in
 * common modern use. Common (Zyyy) and Inherited (Zinh) are recommended too, and count as every script.
 */
const RECOMMENDED_SCRIPTS = [
  'Arab',
  'Armn',
  'Beng',
  'Bopo',
  'Cyrl',
  'Deva',
  'Ethi',
  'Geor',
  'Grek',
  'Gujr',
  'Guru',
  'Hang',
  'Hani',
  'Hebr',
  'Hira',
  'Kana',
  'Khmr',
  'Knda',
  'Laoo',
  'Latn',
  'Mlym',
  'Mymr',
  'Orya',
  'Sinh',
  'Taml',
  'Telu',
  'Thaa',
  'Thai',
  'Tibt',
] as const;

/** A script, or one of UTS #39's writing systems of several (Han with Bopomofo, Japanese, Korean). */
type Script = (typeof RECOMMENDED_SCRIPTS)[number] | 'Hanb' | 'Jpan' | 'Kore';

/** UTS #39 §5.1: a character of these scripts also belongs to these writing systems (its augmented script set). */
const AUGMENTED: Partial<Record<Script, Script[]>> = {
  Hani: ['Hanb', 'Jpan', 'Kore'],
  Hira: ['Jpan'],
  Kana: ['Jpan'],
  Hang: ['Kore'],
  Bopo: ['Hanb'],
};

let scriptTests: [Script, RegExp][] | undefined;
/** One test per recommended script of a character's Script_Extensions, compiled on first use. */
const scriptTestsOf = () => {
  scriptTests ??= RECOMMENDED_SCRIPTS.map((script) => [script, new RegExp(`^\\p{scx=${script}}$`, 'u')]);
  return scriptTests;
};

/** Every script: what Common and Inherited characters belong to. */
const ALL = 'all' as const;
type ScriptSet = Set<Script> | typeof ALL;

/**
 * A character's augmented script set (UTS #39 §5.1), among the recommended scripts: every script for a Common
 * or Inherited character, the empty set for a character of none of them.
 */
export function augmentedScripts(character: string): ScriptSet {
  if (/^[\p{scx=Zyyy}\p{scx=Zinh}]$/u.test(character)) return ALL;
  const scripts = new Set<Script>();
  for (const [script, test] of scriptTestsOf()) {
    if (!test.test(character)) continue;
    scripts.add(script);
    for (const also of AUGMENTED[script] ?? []) scripts.add(also);
  }
  return scripts;
}

/** The resolved script set (UTS #39 §5.1): the intersection of the characters' augmented sets; empty: mixed. */
export function resolvedScripts(characters: readonly string[]): ScriptSet {
  let resolved: ScriptSet = ALL;
  for (const character of characters) {
    const scripts = augmentedScripts(character);
    if (scripts === ALL) continue;
    const kept: Script[] = resolved === ALL ? [...scripts] : [...resolved].filter((script) => scripts.has(script));
    resolved = new Set(kept);
  }
  return resolved;
}

const isEmpty = (set: ScriptSet) => set !== ALL && set.size === 0;

/**
 * UTS #39 §5.2 "Highly Restrictive": the label is single-script, or its characters but the Latin ones resolve
 * to Chinese (Hanb), Japanese (Jpan) or Korean (Kore), the only writing systems Latin may mix with (ICU's
 * `uspoof_getRestrictionLevel` computes it so). Chromium adds that the Latin of such a mix must be ASCII.
 */
function highlyRestrictive(characters: readonly string[]): boolean {
  if (!isEmpty(resolvedScripts(characters))) return true;
  const withoutLatin = characters.filter((character) => {
    const scripts = augmentedScripts(character);
    return scripts === ALL || !scripts.has('Latn');
  });
  const rest = resolvedScripts(withoutLatin);
  const cjk = rest === ALL || rest.has('Hanb') || rest.has('Jpan') || rest.has('Kore');
  return cjk && !characters.some((character) => /^\p{scx=Latn}$/u.test(character) && !/^[a-z]$/.test(character));
}

/**
 * Characters Chromium keeps out of the identifier profile besides those it does not hold (its
 * `SetAllowedUnicodeSet`): rarely used Latin, Greek and Cyrillic blocks (Latin Extended-B's Pinyin, Latin
 * Extended Additional, Greek Extended, Cyrillic Extended-B and -C, Latin Extended-D), U+0138 kra, U+0338
 * (a slash with a broken font), hyphen and quote lookalikes (U+058A, U+2010, U+2019, U+2027, U+30A0, U+02BB,
 * U+02BC, U+02EC).
 */
const CHROMIUM_BLOCKED =
  /[\u01CD-\u01DC\u1C80-\u1C8F\u1E00-\u1E9B\u1F00-\u1FFF\uA640-\uA69F\uA720-\uA7FF\u0138\u058A\u2010\u2019\u2027\u30A0\u02BB\u02BC\u02EC]|\u0338/u;

/**
 * Whether a character is outside the identifier profile, approximating UTS #39's Identifier_Status=Allowed
 * (which JavaScript has no data for) as Chromium's policy step 3 uses it: a letter, mark or digit
 * (`\p{XID_Continue}`, UAX #31) or the hyphen, of a recommended script or of Common or Inherited, and not one
 * of Chromium's blocked characters. Emoji, symbols and historic scripts are outside it.
 */
function restricted(character: string): boolean {
  if (character === '-') return false;
  if (!/^\p{XID_Continue}$/u.test(character) || CHROMIUM_BLOCKED.test(character)) return true;
  return isEmpty(augmentedScripts(character));
}

const DECIMAL_DIGIT = /^\p{Nd}$/u;

/**
 * The zero of a decimal digit's numbering system: decimal digits come in runs of ten, 0 to 9 (a stability
 * policy of Unicode), so it is the run's first code point. (Runs that touch, such as the mathematical digits,
 * are NFKC-mapped to ASCII by IDNA, so no label holds them.)
 */
function zeroOf(code: number): number {
  let zero = code;
  while (code - zero < 9 && DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero--;
  return zero;
}

/** UTS #39 §5.3: how many numbering systems a label's decimal digits are of. */
const numberingSystems = (characters: readonly string[]) =>
  new Set(
    characters
      .filter((character) => DECIMAL_DIGIT.test(character))
      .map((character) => zeroOf(character.codePointAt(0) as number)),
  ).size;

/**
 * Chromium's whole-script confusables (`kWholeScriptConfusables` in idn_spoof_checker.cc; UTS #39 §4): for a
 * script, its letters that look like Latin letters, and the TLDs where a label made of them is expected. A
 * single-script label whose letters of that script are all among them is shown in punycode, unless the TLD is
 * one of those or is written in that script.
 */
const WHOLE_SCRIPT_CONFUSABLES: readonly { script: string; lookalikes: RegExp; tlds: readonly string[] }[] = [
  { script: 'Armn', lookalikes: /^[ագզէլհյոսւօՙ]$/u, tlds: ['am'] },
  {
    script: 'Cyrl',
    lookalikes: /^[аысԁеԍһіюкјӏорԗԛѕԝхуъьҽпгѵѡ]$/u,
    tlds: ['bg', 'by', 'kz', 'pyc', 'ru', 'su', 'ua', 'uz'],
  },
  { script: 'Ethi', lookalikes: /^[ሀሠሰስበነተከዐዕዘጠፐꬅ]$/u, tlds: ['er', 'et'] },
  { script: 'Geor', lookalikes: /^[იოყძხჽჿ]$/u, tlds: ['ge'] },
  { script: 'Grek', lookalikes: /^[αικνρυωηοτ]$/u, tlds: ['gr'] },
  { script: 'Hebr', lookalikes: /^[דוחיןסװײ׳ﬦ]$/u, tlds: ['il'] },
  { script: 'Beng', lookalikes: /^[০৭]$/u, tlds: [] },
  { script: 'Deva', lookalikes: /^[ऽ०ॱ]$/u, tlds: [] },
  { script: 'Gujr', lookalikes: /^[ડટ૦૧]$/u, tlds: [] },
  { script: 'Guru', lookalikes: /^[੦੧]$/u, tlds: [] },
  { script: 'Knda', lookalikes: /^[ಽ೦೧]$/u, tlds: [] },
  { script: 'Mlym', lookalikes: /^[ടഠധനറ൦]$/u, tlds: [] },
  { script: 'Orya', lookalikes: /^[ଠ୦୮]$/u, tlds: [] },
  { script: 'Taml', lookalikes: /^[டப௦]$/u, tlds: [] },
  { script: 'Telu', lookalikes: /^[౦౧]$/u, tlds: [] },
  { script: 'Mymr', lookalikes: /^[ခဂငထပဝ၀၂ၔၜ\u1090\u1091\u1095\u1096\u1097]$/u, tlds: ['mm'] },
  { script: 'Thai', lookalikes: /^[บพเแ๐]$/u, tlds: ['th'] },
];

/** Common words Chromium lets through although they are whole-script confusables (they spell no Latin word). */
const ALLOWED_CONFUSABLE_WORDS = ['секс', 'как', 'коса', 'курс', 'парк', 'такий', 'укроп', 'сахарок', 'покраска'];

function wholeScriptConfusable(label: string, characters: readonly string[], tld: string, tldUnicode: string) {
  if (ALLOWED_CONFUSABLE_WORDS.includes(label)) return false;
  return WHOLE_SCRIPT_CONFUSABLES.some(({ script, lookalikes, tlds }) => {
    const ofScript = new RegExp(`^\\p{sc=${script}}$`, 'u');
    const letters = characters.filter((character) => ofScript.test(character));
    const tldOfScript = [...tldUnicode].some((character) => ofScript.test(character));
    return (
      letters.length > 0 &&
      letters.every((character) => lookalikes.test(character)) &&
      !tlds.includes(tld) &&
      !tldOfScript
    );
  });
}

/**
 * Why a label (in Unicode, as IDNA takes it) is shown in punycode, or null to show it in Unicode; `tld` is
 * the name's last label as stored and `tldUnicode` the same decoded. Chromium's steps, in its order: the
 * identifier profile (3, 4), the middle dot of Catalan only between two `l` (8, as in `col·lecció`), script
 * mixing (5), numbering systems (6), a combining mark repeated (7: it shows once), whole-script confusables (10).
 */
export function labelWarning(label: string, tld: string, tldUnicode: string): IdnWarning | null {
  if (/^\p{ASCII}*$/u.test(label)) return null;
  const characters = [...label];
  if (characters.some(restricted)) return 'restricted_characters';
  if (/(?<!l)\u00B7|\u00B7(?!l)/u.test(label)) return 'restricted_characters';
  if (/(\p{M})\1/u.test(label)) return 'restricted_characters';
  if (!highlyRestrictive(characters)) return 'mixed_scripts';
  if (numberingSystems(characters) > 1) return 'mixed_numbers';
  const singleScript = !isEmpty(resolvedScripts(characters));
  if (singleScript && wholeScriptConfusable(label, characters, tld, tldUnicode)) return 'whole_script_confusable';
  return null;
}
