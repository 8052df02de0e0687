package hongbao.core.packet;

import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A funded red packet as the ledger knows it. Immutable: what happens to it afterwards (grabs,
 * payouts, the refund) is recorded elsewhere.
 *
 * @param passwordKey the normalised 口令 phrase, or null when the packet has none
 * @param recipients the users allowed to grab an EXCLUSIVE packet; empty otherwise
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
    Instant expiresAt) {

  public Packet {
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    recipients = List.copyOf(recipients);
  }

  public boolean hasPassword() {
    return passwordKey != null;
  }

  public boolean isExpiredAt(Instant now) {
    return !now.isBefore(expiresAt);
  }
}
