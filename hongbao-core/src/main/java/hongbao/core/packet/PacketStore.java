package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

  /** The paid grabs of a packet in grab order, for when the grab store no longer has them. */
  List<GrabView> paidGrabViews(long packetId);

  /** Which of these packets have paid the user a share. */
  Set<Long> paidAmong(String userId, Collection<Long> packetIds);

  /** What went back to the sender (zero before the refund). */
  Amount refunded(long packetId);
}
