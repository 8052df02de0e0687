package hongbao.core.password;

/**
 * Port: how phrases sound, for a 口令 matched as people say it (implemented with a pinyin library
 * outside core). Both methods are pure and thread-safe.
 */
public interface Pronunciation {

  /** How a {@link PasswordKey} sounds, unit by unit. */
  Reading read(String key);

  /**
   * Whether an attempt sounds like the sender's phrase under a {@link PasswordMatch.Pinyin} or
   * {@link PasswordMatch.Fuzzy} mode. ({@link PasswordMatch.Exact} compares keys, never readings.)
   */
  boolean alike(Reading phrase, Reading attempt, PasswordMatch match);
}
