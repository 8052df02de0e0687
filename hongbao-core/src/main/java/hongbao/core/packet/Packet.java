package hongbao.core.packet;

import hongbao.core.Invariants;
import hongbao.core.money.Amount;
import hongbao.core.password.PasswordMatch;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A funded red packet as the ledger knows it. Immutable: what happens to it afterwards (grabs,
 * payouts, the refund) is recorded elsewhere.
 *
 * <p>A packet sent into an activity carries the activity in its id: {@code 2^62 | activityId << 40
 * | n}, where n is the ledger's packet sequence number (below 2^40) and bit 62 marks the layout, so
 * that no other id (a plain sequence number) is ever read as one of an activity. The fast store
 * keeps every packet of an activity in the activity's shard, and a grab that knows only the packet
 * id finds that shard without asking anyone (see {@link #activityOf}).
 *
 * @param passwordKey the normalised 口令 phrase, or null when the packet has none
 * @param recipients the users allowed to grab an EXCLUSIVE packet; empty otherwise
 * @param passwordMatch how a grab's phrase must resemble the sender's; EXACT without a phrase
 */
public record Packet(
    long id,
    String sender,
    PacketType type,
    Amount amount,
    int count,
    String greeting,
    String passwordKey,
    List<String> recipients,
    Instant createdAt,
    Instant expiresAt,
    PasswordMatch passwordMatch) {

  /** Bits of a packet id below the activity: the ledger's sequence number. */
  public static final int ACTIVITY_SHIFT = 40;

  /** The bit that marks the id of a packet in an activity. */
  public static final long IN_ACTIVITY = 1L << 62;

  /** The largest activity id: 22 bits between the sequence number and the mark. */
  public static final long MAX_ACTIVITY_ID = (1L << 22) - 1;

  private static final long SEQUENCE_MASK = (1L << ACTIVITY_SHIFT) - 1;

  public Packet {
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(passwordMatch, "passwordMatch");
    recipients = List.copyOf(recipients);
  }

  /** A packet matched exactly, as every packet was before pinyin matching. */
  public Packet(
      long id,
      String sender,
      PacketType type,
      Amount amount,
      int count,
      String greeting,
      String passwordKey,
      List<String> recipients,
      Instant createdAt,
      Instant expiresAt) {
    this(
        id,
        sender,
        type,
        amount,
        count,
        greeting,
        passwordKey,
        recipients,
        createdAt,
        expiresAt,
        PasswordMatch.EXACT);
  }

  /** The id of the packet numbered {@code sequence} by the ledger, sent into an activity or not. */
  public static long idOf(long sequence, long activityId) {
    Invariants.check(
        sequence > 0 && sequence <= SEQUENCE_MASK, "packet sequence %s out of range", sequence);
    Invariants.check(
        activityId >= 0 && activityId <= MAX_ACTIVITY_ID,
        "activity id %s out of range",
        activityId);
    return activityId == 0 ? sequence : IN_ACTIVITY | activityId << ACTIVITY_SHIFT | sequence;
  }

  /** The activity a packet id belongs to, 0 for none. */
  public static long activityOf(long packetId) {
    return (packetId & IN_ACTIVITY) == 0 ? 0 : (packetId >>> ACTIVITY_SHIFT) & MAX_ACTIVITY_ID;
  }

  /** The lowest and highest id a packet of the activity can have. */
  public static long[] idRangeOf(long activityId) {
    long first = IN_ACTIVITY | activityId << ACTIVITY_SHIFT;
    return new long[] {first, first | SEQUENCE_MASK};
  }

  /** The activity this packet counts grabs for, 0 for none. */
  public long activityId() {
    return activityOf(id);
  }

  public boolean hasPassword() {
    return passwordKey != null;
  }

  public boolean isExpiredAt(Instant now) {
    return !now.isBefore(expiresAt);
  }
}
