package hongbao.core.reward;

/** What a token is worth to the server. */
public enum Validity {
  /** It does not open: tampered, truncated, another user's, or sealed with a key no longer held. */
  ILLEGAL,
  /** It opens, but the server has no record of it: never credited. */
  UNKNOWN,
  /** It opens and the server has it. */
  LEGAL
}
