package hongbao.core.reward;

import java.util.ArrayList;
import java.util.List;

/**
 * Sends the parked events of every type that is no longer fused back onto its virtual queue, then
 * removes them from the lot. Sending before removing means a crash in between only sends an event
 * twice, which crediting by tradeNo absorbs. An event is handed over, never held in memory: while
 * both topics of its queue are down it stays parked, and the pass stops there. Any number of
 * instances may run it.
 */
public final class Unparker {

  public static final int BATCH = 500;

  private final RewardTypes types;
  private final ParkingLot parking;
  private final RewardQueues queues;

  public Unparker(RewardTypes types, ParkingLot parking, RewardQueues queues) {
    this.types = types;
    this.parking = parking;
    this.queues = queues;
  }

  /**
   * @return how many events went back on their queues
   * @throws RewardQueues.QueuesDown when a queue took none of an event (what it took before that is
   *     out of the lot)
   */
  public int unparkOnce() {
    int sent = 0;
    for (RewardType type : types.all()) {
      if (type.fused()) {
        continue;
      }
      List<ParkingLot.Parked> parked = parking.peek(type.type(), BATCH);
      var handedOver = new ArrayList<ParkingLot.Parked>(parked.size());
      try {
        for (ParkingLot.Parked event : parked) {
          queues.handOver(event.reward(), type.queue(), event.attempt());
          handedOver.add(event);
        }
      } finally {
        if (!handedOver.isEmpty()) {
          parking.remove(type.type(), handedOver);
        }
      }
      sent += parked.size();
    }
    return sent;
  }
}
