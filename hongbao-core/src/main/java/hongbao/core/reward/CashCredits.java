package hongbao.core.reward;

import hongbao.core.Invariants;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Group commit for CASH credits. Every CASH credit moves money out of its campaign's one escrow
 * row, so one credit per transaction queues every credit behind the previous commit's fsync (about
 * 115 a second measured here). Concurrent credits instead join a batch: the first caller to find no
 * batch in flight writes everything queued (up to {@link RewardBook#CASH_BATCH_MAX}) in one
 * transaction and hands each caller its answer; the others wait. No thread of its own; a lone
 * caller writes alone.
 *
 * <p>A tradeNo already in the batch waits for the next one, so a batch never holds a tradeNo twice.
 * Thread-safe.
 */
public final class CashCredits {

  private final RewardBook book;
  private final int maxBatch;
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean writing = new AtomicBoolean();

  public CashCredits(RewardBook book, int maxBatch) {
    Invariants.check(
        maxBatch >= 1 && maxBatch <= RewardBook.CASH_BATCH_MAX, "batch of %d credits", maxBatch);
    this.book = book;
    this.maxBatch = maxBatch;
  }

  private record Pending(Reward reward, CompletableFuture<RewardBook.Credit> answer) {}

  /**
   * Credits one CASH reward, in a batch with whatever else is waiting.
   *
   * @throws RuntimeException the batch's failure (an outage): nothing of the batch was written
   */
  public RewardBook.Credit credit(Reward reward) throws InterruptedException {
    var pending = new Pending(reward, new CompletableFuture<>());
    queue.add(pending);
    // Whoever holds the writer's flag drains the queue, and looks again after letting go: an entry
    // queued meanwhile is either seen then or its caller takes the flag itself. So a caller that
    // finds the flag taken can block until its answer comes.
    while (!queue.isEmpty() && writing.compareAndSet(false, true)) {
      try {
        while (!queue.isEmpty()) {
          writeBatch();
        }
      } finally {
        writing.set(false);
      }
    }
    try {
      return pending.answer.get();
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    }
  }

  private void writeBatch() {
    var batch = new ArrayList<Pending>();
    var tradeNos = new HashSet<String>();
    var later = new ArrayList<Pending>();
    Pending next;
    while (batch.size() < maxBatch && (next = queue.poll()) != null) {
      (tradeNos.add(next.reward.tradeNo()) ? batch : later).add(next);
    }
    queue.addAll(later);
    if (batch.isEmpty()) {
      return;
    }
    try {
      List<RewardBook.Credit> answers =
          book.creditCash(batch.stream().map(Pending::reward).toList());
      Invariants.check(
          answers.size() == batch.size(),
          "%d answers for %d credits",
          answers.size(),
          batch.size());
      for (int i = 0; i < batch.size(); i++) {
        batch.get(i).answer.complete(answers.get(i));
      }
    } catch (RuntimeException | Error e) {
      batch.forEach(p -> p.answer.completeExceptionally(e));
    }
  }

  private static RuntimeException rethrow(Throwable cause) {
    if (cause instanceof Error error) {
      throw error;
    }
    return cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
  }
}
