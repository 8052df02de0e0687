package hongbao.crypto;

import hongbao.core.grab.GrabReceipt;
import hongbao.core.grab.Receipts;
import hongbao.core.money.Amount;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * Grab receipts sealed with AES-256-GCM. The body is 37 bytes (version 2, packet id, amount, seq,
 * grab time, the packet's creation), or 29 without the creation (version 1, which older receipts
 * are and a packet armed before the store kept its creation gets); the user id is not in it but
 * bound as associated data together with the purpose, so a receipt opens only for the user it was
 * given to and never as another kind of token. A sealed receipt is 96 characters (86 in version 1).
 */
public final class SealedReceipts implements Receipts {

  private static final byte WITHOUT_CREATION = 1;
  private static final byte WITH_CREATION = 2;
  private static final int BODY_BYTES = 1 + 8 + 8 + 4 + 8;
  private static final int BODY_BYTES_WITH_CREATION = BODY_BYTES + 8;
  private static final String PURPOSE = "hongbao.receipt.v1|";

  private final Sealer sealer;

  public SealedReceipts(Sealer sealer) {
    this.sealer = sealer;
  }

  @Override
  public String seal(GrabReceipt receipt) {
    Instant created = receipt.packetCreatedAt();
    ByteBuffer body =
        ByteBuffer.allocate(created == null ? BODY_BYTES : BODY_BYTES_WITH_CREATION)
            .put(created == null ? WITHOUT_CREATION : WITH_CREATION)
            .putLong(receipt.packetId())
            .putLong(receipt.amount().fen())
            .putInt(receipt.seq())
            .putLong(receipt.grabbedAt().toEpochMilli());
    if (created != null) {
      body.putLong(created.toEpochMilli());
    }
    return sealer.seal(body.array(), associatedData(receipt.userId()));
  }

  @Override
  public Optional<GrabReceipt> open(String token, String userId) {
    return sealer
        .open(token, associatedData(userId))
        .filter(
            body ->
                (body.length == BODY_BYTES && body[0] == WITHOUT_CREATION)
                    || (body.length == BODY_BYTES_WITH_CREATION && body[0] == WITH_CREATION))
        .flatMap(body -> decode(ByteBuffer.wrap(body, 1, body.length - 1), userId));
  }

  private static Optional<GrabReceipt> decode(ByteBuffer body, String userId) {
    long packetId = body.getLong();
    long fen = body.getLong();
    int seq = body.getInt();
    long millis = body.getLong();
    Instant created = body.hasRemaining() ? Instant.ofEpochMilli(body.getLong()) : null;
    if (fen <= 0 || seq < 1) {
      return Optional.empty();
    }
    return Optional.of(
        new GrabReceipt(
            packetId, userId, Amount.fen(fen), seq, Instant.ofEpochMilli(millis), created));
  }

  private static byte[] associatedData(String userId) {
    return (PURPOSE + userId).getBytes(StandardCharsets.UTF_8);
  }
}
