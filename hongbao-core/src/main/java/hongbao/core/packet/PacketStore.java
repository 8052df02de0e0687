package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Port: packets as the ledger recorded them, and their settled history. */
public interface PacketStore {

  Optional<Packet> find(long packetId);

  /** Packets sent by a user, newest first, with ids below {@code beforeId} (null: from newest). */
  List<Packet> sentBy(String userId, Long beforeId, int limit);

  /** Ids of packets from which the user has been paid a share, newest first, below beforeId. */
  List<Long> paidTo(String userId, Long beforeId, int limit);

  /** Packets not yet armed in the fast store that have not expired, oldest first. */
  List<Packet> unarmed(Instant createdBefore, Instant now, int limit);

  void markArmed(long packetId);

  /** Expired packets whose remainder has not been refunded yet, oldest expiry first. */
  List<Packet> expiredUnrefunded(Instant now, int limit);

  /** The grabs of a packet that the ledger has paid: user id to amount. */
  Map<String, Amount> paidGrabs(long packetId);

  /** What went back to the sender (zero before the refund). */
  Amount refunded(long packetId);
}
