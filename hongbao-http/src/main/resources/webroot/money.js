// Money crosses the API as integer fen. It is turned into yuan text only here, at the display
// edge, by string slicing: no floating point ever touches an amount.

const YUAN_PATTERN = /^(\d{1,12})?(?:\.(\d{0,2}))?$/;

/** 1234 → "12.34", -5 → "-0.05", 100000 → "1,000.00". */
export function formatFen(fen) {
  if (!Number.isSafeInteger(fen)) return "—";
  const negative = fen < 0;
  const digits = String(negative ? -fen : fen).padStart(3, "0");
  const yuan = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (negative ? "-" : "") + yuan + "." + digits.slice(-2);
}

/** "12.34" → 1234, "12" → 1200, "0.5" → 50; null when the text is not an amount of yuan. */
export function parseYuan(text) {
  const trimmed = String(text ?? "").trim().replace(/^¥/, "");
  const match = YUAN_PATTERN.exec(trimmed);
  if (!match || (match[1] === undefined && !match[2])) return null;
  const whole = match[1] ?? "0";
  const cents = (match[2] ?? "").padEnd(2, "0");
  // Concatenating the digit strings keeps the conversion exact for any input the pattern admits.
  return Number.parseInt(whole + cents, 10);
}
