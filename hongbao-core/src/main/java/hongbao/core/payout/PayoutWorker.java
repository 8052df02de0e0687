package hongbao.core.payout;

import hongbao.core.ledger.Ledger;
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
 * <p>A batch the ledger refuses is paid task by task so one poisoned task cannot block the rest. If
 * every task fails, the ledger itself is presumed down: the batch is kept and retried (the caller
 * backs off) rather than counted against the tasks. A task that keeps failing on its own stays
 * unacknowledged until the queue dead-letters it after too many deliveries.
 */
public final class PayoutWorker {

  private static final System.Logger LOG = System.getLogger(PayoutWorker.class.getName());

  private final PayoutQueue queue;
  private final Ledger ledger;
  private final Switches switches;
  private final PayoutSettings settings;
  private List<PayoutTask> unsettled = List.of();

  public PayoutWorker(
      PayoutQueue queue, Ledger ledger, Switches switches, PayoutSettings settings) {
    this.queue = queue;
    this.ledger = ledger;
    this.switches = switches;
    this.settings = settings;
  }

  public String consumer() {
    return settings.consumer();
  }

  /**
   * One round: finish a batch left over from a ledger outage, or poll a new one and pay it.
   *
   * @return how many tasks were settled; 0 when paused or idle
   * @throws RuntimeException when the ledger is unavailable (the batch is kept for the next round)
   */
  public int payOnce() {
    if (!switches.enabled(Switch.PAYOUTS)) {
      return 0;
    }
    if (unsettled.isEmpty()) {
      unsettled = queue.poll(settings.consumer(), settings.batchSize(), settings.pollWait());
    }
    // The switch may have turned while the poll waited: hold the batch until payouts resume.
    return switches.enabled(Switch.PAYOUTS) ? settleUnsettled() : 0;
  }

  /** Takes over tasks another consumer left pending too long, and pays them. */
  public int reclaimOnce() {
    if (!switches.enabled(Switch.PAYOUTS) || !unsettled.isEmpty()) {
      return 0;
    }
    unsettled =
        queue.reclaim(
            settings.consumer(),
            settings.reclaimIdle(),
            settings.maxDeliveries(),
            settings.batchSize());
    return settleUnsettled();
  }

  private int settleUnsettled() {
    List<PayoutTask> batch = unsettled;
    if (batch.isEmpty()) {
      return 0;
    }
    try {
      ledger.pay(batch);
      queue.ack(batch);
      unsettled = List.of();
      return batch.size();
    } catch (RuntimeException batchFailure) {
      List<PayoutTask> paid = payOneByOne(batch);
      if (paid.isEmpty()) {
        throw batchFailure;
      }
      queue.ack(paid);
      unsettled = List.of();
      return paid.size();
    }
  }

  private List<PayoutTask> payOneByOne(List<PayoutTask> batch) {
    var paid = new ArrayList<PayoutTask>();
    for (PayoutTask task : batch) {
      try {
        ledger.pay(List.of(task));
        paid.add(task);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "payout of " + task.transferKey() + " failed", e);
      }
    }
    return paid;
  }

  /** How a worker polls, batches and reclaims. */
  public record PayoutSettings(
      String consumer, int batchSize, Duration pollWait, Duration reclaimIdle, int maxDeliveries) {}
}
