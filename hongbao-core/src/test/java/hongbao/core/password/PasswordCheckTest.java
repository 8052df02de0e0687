package hongbao.core.password;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PasswordCheckTest {

  /** Counts what a check asks: the lock, and readings of attempts. */
  private final AtomicInteger lockReads = new AtomicInteger();

  private final AtomicInteger readings = new AtomicInteger();

  private final Pronunciation pronunciation =
      new Pronunciation() {
        @Override
        public Reading read(String key) {
          readings.incrementAndGet();
          return new Reading(
              key.codePoints().limit(Reading.MAX_UNITS).mapToObj(c -> List.of("yin")).toList());
        }

        @Override
        public boolean alike(Reading phrase, Reading attempt, PasswordMatch match) {
          return false;
        }
      };

  private final PasswordLock lock =
      PasswordLock.of("恭喜发财", new PasswordMatch.Fuzzy(60), pronunciation);

  private final PasswordCheck check =
      new PasswordCheck(
          packetId -> {
            lockReads.incrementAndGet();
            return CompletableFuture.completedFuture(Optional.of(lock));
          },
          pronunciation);

  /**
   * A phrase may be as long as the request body: one beyond four times the longest password is its
   * own key at once, which no lock holds, without the lock or a reading of it.
   */
  @Test
  void aPhraseFarLongerThanAnyPassword_isNeitherReadNorCompared() {
    readings.set(0);
    String huge = "恭喜发财".repeat(65);

    String key = check.keyFor(1, huge).toCompletableFuture().join();

    assertThat(key).isEqualTo(PasswordKey.of(huge));
    assertThat(lockReads).hasValue(0);
    assertThat(readings).hasValue(0);
  }

  @Test
  void aPhraseWithinTheBound_isComparedWithTheLock() {
    readings.set(0);
    String attempt = "恭喜发财".repeat(64);

    String key = check.keyFor(1, attempt).toCompletableFuture().join();

    assertThat(key).isEqualTo(PasswordKey.of(attempt));
    assertThat(lockReads).hasValue(1);
    assertThat(readings).hasValue(1);
  }
}
