package hongbao.core.reward;

import java.util.List;

/**
 * Sends the parked events of every type that is no longer fused back onto its virtual queue, then
 * removes them from the lot. Sending before removing means a crash in between only sends an event
 * twice, which crediting by tradeNo absorbs. Any number of instances may run it.
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
   */
  public int unparkOnce() {
    int sent = 0;
    for (RewardType type : types.all()) {
      if (type.fused()) {
        continue;
      }
      List<ParkingLot.Parked> parked = parking.peek(type.type(), BATCH);
      for (ParkingLot.Parked event : parked) {
        queues.send(event.reward(), type.queue(), event.attempt());
      }
      parking.remove(type.type(), parked);
      sent += parked.size();
    }
    return sent;
  }
}
