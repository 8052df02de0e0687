package hongbao.core.reward;

import java.time.Duration;
import java.util.List;

/**
 * Port: durable parking for the events of a fused type, per type. Parking instead of re-queueing at
 * once keeps a fused type from spinning through the queues; parking instead of holding keeps it
 * from blocking the other types that share its queue. Unfusing sends the parked events back.
 */
public interface ParkingLot {

  void park(Reward reward, int attempt);

  /** At most {@code max} parked events of a type, oldest first; they stay until removed. */
  List<Parked> peek(String type, int max);

  void remove(String type, List<Parked> parked);

  /**
   * Takes or renews the lease on sending a type's parked events back, for {@code lease}: while
   * {@code owner} holds it, other owners' unparkers leave the type alone, so that each event goes
   * back once rather than once per instance. False while another owner holds it.
   */
  boolean leaseUnparking(String type, String owner, Duration lease);

  /** How many events are parked, for every type. */
  long size();

  /** One parked event; {@code id} identifies it in the lot. */
  record Parked(String id, Reward reward, int attempt) {}
}
