package hongbao.core.payout;

import hongbao.core.Unavailable;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves grabbed shares from escrow to wallets: take a batch from the queue, pay it in one ledger
 * transaction, acknowledge. A crash between paying and acknowledging only causes a redelivery,
 * which the ledger's unique transfer keys turn into a no-op, so every grab is paid exactly once.
 *
 * <p>What goes wrong is sorted by kind, and only an outage holds work back:
 *
 * <ul>
 *   <li>the ledger is {@link Unavailable}: the batch is kept in memory and retried as a whole next
 *       round (the caller backs off); nothing is counted against its tasks, and no task is taken
 *       over from another consumer until the ledger answers again;
 *   <li>the ledger refuses a task ({@link PayoutRefused}: the books do not allow it): the task is
 *       dead-lettered at once with the reason;
 *   <li>any other failure of one task: the task stays unacknowledged and the batch is released; the
 *       queue redelivers the task after the reclaim idle time, counting deliveries, and
 *       dead-letters it after too many, so one poisoned task can neither block nor be retried
 *       forever.
 * </ul>
 */
public final class PayoutWorker {

  private static final System.Logger LOG = System.getLogger(PayoutWorker.class.getName());

  private final PayoutQueue queue;
  private final Payouts ledger;
  private final Switches switches;
  private final PayoutSettings settings;
  private List<PayoutTask> heldForOutage = List.of();

  public PayoutWorker(
      PayoutQueue queue, Payouts ledger, Switches switches, PayoutSettings settings) {
    this.queue = queue;
    this.ledger = ledger;
    this.switches = switches;
    this.settings = settings;
  }

  public String consumer() {
    return settings.consumer();
  }

  /**
   * One round: finish a batch held through a ledger outage, or poll a new one and pay it.
   *
   * @return how many tasks were settled (paid or dead-lettered); 0 when paused or idle
   * @throws Unavailable when the ledger or the queue is down (a batch is kept for the next round)
   */
  public int payOnce() {
    if (!switches.enabled(Switch.PAYOUTS)) {
      return 0;
    }
    List<PayoutTask> batch = heldForOutage;
    if (batch.isEmpty()) {
      batch = queue.poll(settings.consumer(), settings.batchSize(), settings.pollWait());
    }
    // The switch may have turned while the poll waited: hold the batch until payouts resume.
    if (!switches.enabled(Switch.PAYOUTS)) {
      heldForOutage = batch;
      return 0;
    }
    return settle(batch);
  }

  /** Takes over tasks another consumer left pending too long, and pays them. */
  public int reclaimOnce() {
    if (!switches.enabled(Switch.PAYOUTS)) {
      return 0;
    }
    int settled = heldForOutage.isEmpty() ? 0 : settle(heldForOutage);
    // Taking tasks over counts a delivery against each. While the ledger is down every instance
    // would take them over once (each then holds them and stops reclaiming), so with more
    // instances than the delivery limit an outage alone would dead-letter them: ask first.
    ledger.checkReachable();
    List<PayoutTask> stale =
        queue.reclaim(
            settings.consumer(),
            settings.reclaimIdle(),
            settings.maxDeliveries(),
            settings.batchSize());
    return settled + settle(stale);
  }

  private int settle(List<PayoutTask> batch) {
    heldForOutage = List.of();
    if (batch.isEmpty()) {
      return 0;
    }
    try {
      ledger.pay(batch);
      queue.ack(batch);
      return batch.size();
    } catch (Unavailable outage) {
      heldForOutage = batch;
      throw outage;
    } catch (RuntimeException batchFailure) {
      return settleOneByOne(batch);
    }
  }

  private int settleOneByOne(List<PayoutTask> batch) {
    var paid = new ArrayList<PayoutTask>();
    int settled = 0;
    for (PayoutTask task : batch) {
      try {
        ledger.pay(List.of(task));
        paid.add(task);
      } catch (Unavailable outage) {
        queue.ack(paid);
        heldForOutage = batch.subList(batch.indexOf(task), batch.size());
        throw outage;
      } catch (PayoutRefused refused) {
        LOG.log(Level.ERROR, "payout " + task.transferKey() + " refused: " + refused.getMessage());
        queue.deadLetter(task, refused.getMessage());
        settled++;
      } catch (RuntimeException failure) {
        // Left unacknowledged: redelivered after the reclaim idle time, dead-lettered after too
        // many deliveries.
        LOG.log(Level.WARNING, "payout of " + task.transferKey() + " failed", failure);
      }
    }
    queue.ack(paid);
    return settled + paid.size();
  }

  /** How a worker polls, batches and reclaims. */
  public record PayoutSettings(
      String consumer, int batchSize, Duration pollWait, Duration reclaimIdle, int maxDeliveries) {}
}
