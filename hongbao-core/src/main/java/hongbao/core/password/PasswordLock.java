package hongbao.core.password;

import java.util.Objects;

/**
 * What a 口令 packet keeps of its sender's phrase so that a grab can be matched without the ledger:
 * the normalised key, the mode, and how the phrase sounds (null for {@link PasswordMatch.Exact},
 * which never needs it).
 */
public record PasswordLock(String key, PasswordMatch match, Reading reading) {

  public PasswordLock {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(match, "match");
    if (!(match instanceof PasswordMatch.Exact)) {
      Objects.requireNonNull(reading, "reading");
    }
  }

  /** A lock opened by the same key only (packets armed before pinyin matching existed). */
  public static PasswordLock exact(String key) {
    return new PasswordLock(key, PasswordMatch.EXACT, null);
  }

  /** The lock of a sender's key under a mode. */
  public static PasswordLock of(String key, PasswordMatch match, Pronunciation pronunciation) {
    return match instanceof PasswordMatch.Exact
        ? exact(key)
        : new PasswordLock(key, match, pronunciation.read(key));
  }

  /** Whether a grab's normalised phrase opens this lock. */
  public boolean opens(String attemptKey, Pronunciation pronunciation) {
    if (key.equals(attemptKey)) {
      return true;
    }
    if (match instanceof PasswordMatch.Exact || attemptKey.isEmpty()) {
      return false;
    }
    return pronunciation.alike(reading, pronunciation.read(attemptKey), match);
  }
}
