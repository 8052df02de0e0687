package hongbao.core.password;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Decides a grab's 口令 before the grab script runs, so that the script stays one atomic step that
 * compares keys. A phrase that opens the packet's lock is presented as the lock's own key (the
 * verdict the script trusts); any other phrase is presented as its own key, which the script finds
 * different and answers WRONG_PASSWORD in its usual order. Only grabs that carry a phrase pay the
 * extra read of the lock.
 */
public final class PasswordCheck {

  private final PasswordLocks locks;
  private final Pronunciation pronunciation;

  public PasswordCheck(PasswordLocks locks, Pronunciation pronunciation) {
    this.locks = locks;
    this.pronunciation = pronunciation;
  }

  /**
   * Attempts longer than this (in characters of their key) are never read or compared: four times
   * the longest password a packet may have, beyond any key or any fuzzy match of one. A phrase is
   * bounded only by the request body's 16 KiB, and reading one as pinyin runs on an event loop.
   */
  static final int ATTEMPT_MAX_CHARS = 256;

  /** The key to hand the grab script for this phrase (null for none). */
  public CompletionStage<String> keyFor(long packetId, String phrase) {
    if (phrase == null) {
      return CompletableFuture.completedFuture(null);
    }
    String attempt = PasswordKey.of(phrase);
    if (attempt.codePointCount(0, attempt.length()) > ATTEMPT_MAX_CHARS) {
      // Its own key, which no lock holds: the script answers WRONG_PASSWORD where one is set.
      return CompletableFuture.completedFuture(attempt);
    }
    return locks
        .lockOf(packetId)
        .thenApply(
            lock ->
                lock.filter(l -> l.opens(attempt, pronunciation))
                    .map(PasswordLock::key)
                    .orElse(attempt));
  }

  public Pronunciation pronunciation() {
    return pronunciation;
  }
}
