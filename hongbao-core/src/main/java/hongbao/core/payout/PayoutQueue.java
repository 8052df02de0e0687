package hongbao.core.payout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Port: the at-least-once queue of payout tasks filled by grabs. A task stays pending until it is
 * acknowledged; a consumer that dies leaves its tasks to be reclaimed by another.
 */
public interface PayoutQueue {

  /**
   * Up to {@code max} new tasks for this consumer; waits at most {@code wait} when there are none.
   */
  List<PayoutTask> poll(String consumer, int max, Duration wait);

  /** Marks tasks done; they are never delivered again. */
  void ack(List<PayoutTask> tasks);

  /**
   * Takes over tasks pending longer than {@code minIdle} with any consumer. Tasks delivered more
   * than {@code maxDeliveries} times are moved to the dead-letter queue instead of being returned.
   */
  List<PayoutTask> reclaim(String consumer, Duration minIdle, int maxDeliveries, int max);

  /**
   * Gives up on one task at once: it moves to the dead-letter queue with the reason and is never
   * delivered again. For a task the ledger refused, which no retry can change.
   */
  void deadLetter(PayoutTask task, String reason);

  /** Tasks that were given up on, for the reconciler to report. */
  List<DeadLetter> deadLetters(int max);

  /**
   * Sends a dead-lettered task back to the queue, named by its {@link DeadLetter#id()}: the
   * operator's retry once the cause is fixed. It is delivered again as a new task; the ledger's
   * transfer key still pays it at most once, and a refusal dead-letters it again.
   *
   * @return false when no task of that id is dead-lettered (retried already, or never was)
   */
  boolean redrive(String deadLetterId);

  /**
   * Forgets consumers that have held nothing for longer than {@code idle} (each restart of an
   * instance leaves its old consumer names behind).
   *
   * @return how many were removed
   */
  int removeIdleConsumers(Duration idle);

  /** Tasks not yet acknowledged, pending or not yet delivered. */
  long backlog();

  /**
   * The tasks not yet acknowledged that are first in line on their stream (a stream is in queue
   * order) and were grabbed before {@code grabbedBefore}, at most {@code max}: the reconciler's
   * measure of which shares have waited long, whatever became of their packets since.
   */
  List<PayoutTask> waitingHeads(Instant grabbedBefore, int max);
}
