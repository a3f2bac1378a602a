/** Space-separated distinct lower-case 1- and 2-character pieces of letters and digits. */
export function grams(text: string | null): string;
