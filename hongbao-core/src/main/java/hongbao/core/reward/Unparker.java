package hongbao.core.reward;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends the parked events of every type that is no longer fused back onto its virtual queue, then
 * removes them from the lot. Sending before removing means a crash in between only sends an event
 * twice, which crediting by tradeNo absorbs. An event is handed over, never held in memory: while
 * both topics of its queue are down it stays parked, and the pass stops there. Any number of
 * instances may run it: one at a time sends a type's events, holding its lease ({@link #LEASE},
 * renewed after every event it hands over, and longer than any one hand-over may take, so that a
 * live unparker never loses it mid-batch). Without it every instance sent the same oldest events,
 * each a duplicate that took a token of the type's rate for nothing.
 */
public final class Unparker {

  public static final int BATCH = 500;

  /**
   * How long an unparker that stopped keeps a type from the others: well beyond one hand-over,
   * which waits at most {@link RewardQueues#SEND_TIMEOUT}.
   */
  static final Duration LEASE = Duration.ofMinutes(2);

  private final RewardTypes types;
  private final ParkingLot parking;
  private final RewardQueues queues;
  private final String owner;

  /**
   * @param owner this instance, as the lease names it
   */
  public Unparker(RewardTypes types, ParkingLot parking, RewardQueues queues, String owner) {
    this.types = types;
    this.parking = parking;
    this.queues = queues;
    this.owner = owner;
  }

  /**
   * @return how many events went back on their queues
   * @throws RewardQueues.QueuesDown when a queue took none of an event (what it took before that is
   *     out of the lot)
   */
  public int unparkOnce() {
    int sent = 0;
    for (RewardType type : types.all()) {
      if (type.fused()
          || parking.peek(type.type(), 1).isEmpty()
          || !parking.leaseUnparking(type.type(), owner, LEASE)) {
        continue;
      }
      List<ParkingLot.Parked> parked = parking.peek(type.type(), BATCH);
      var handedOver = new ArrayList<ParkingLot.Parked>(parked.size());
      try {
        for (ParkingLot.Parked event : parked) {
          queues.handOver(event.reward(), type.queue(), event.attempt());
          handedOver.add(event);
          if (!parking.leaseUnparking(type.type(), owner, LEASE)) {
            break; // another instance took the type over from a pass that stalled
          }
        }
      } finally {
        if (!handedOver.isEmpty()) {
          parking.remove(type.type(), handedOver);
        }
      }
      sent += handedOver.size();
    }
    return sent;
  }
}
