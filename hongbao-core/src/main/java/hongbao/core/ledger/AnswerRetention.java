package hongbao.core.ledger;

import java.time.Clock;
import java.time.Duration;

/**
 * Forgets stored idempotency answers once their retention is over, a bounded batch at a time, so
 * the table stays the size of a few days of requests instead of growing forever. The contract
 * promises a key is kept at least 24 hours; the retention is never shorter.
 */
public final class AnswerRetention {

  /** What the API promises: a retry within a day replays the stored answer. */
  public static final Duration MIN = Duration.ofHours(24);

  /** Twice the promise: a client's retry across a day boundary still replays. */
  public static final Duration DEFAULT = Duration.ofHours(48);

  /** Rows deleted per call: one short statement, never a table-long one. */
  public static final int BATCH_MAX = 1_000;

  /** Port: the stored answers. */
  public interface Answers {

    /**
     * Deletes at most {@code limit} answers stored before {@code cutoff}, oldest first.
     *
     * @return how many were deleted
     */
    int deleteStoredBefore(java.time.Instant cutoff, int limit);
  }

  private final Answers answers;
  private final Clock clock;
  private final Duration retention;
  private final int batch;

  public AnswerRetention(Answers answers, Clock clock, Duration retention, int batch) {
    if (retention.compareTo(MIN) < 0) {
      throw new IllegalArgumentException("retention must be at least " + MIN + ": " + retention);
    }
    if (batch < 1 || batch > BATCH_MAX) {
      throw new IllegalArgumentException("batch must be 1.." + BATCH_MAX + ": " + batch);
    }
    this.answers = answers;
    this.clock = clock;
    this.retention = retention;
    this.batch = batch;
  }

  /** Deletes one batch of answers past their retention; returns how many. */
  public int purgeOnce() {
    return answers.deleteStoredBefore(clock.instant().minus(retention), batch);
  }
}
