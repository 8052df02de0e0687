package hongbao.crypto;

import hongbao.core.grab.GrabReceipt;
import hongbao.core.grab.Receipts;
import hongbao.core.money.Amount;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * Grab receipts sealed with AES-256-GCM. The body is 29 bytes (version, packet id, amount, seq,
 * grab time); the user id is not in it but bound as associated data together with the purpose, so a
 * receipt opens only for the user it was given to and never as another kind of token. A sealed
 * receipt is 86 characters.
 */
public final class SealedReceipts implements Receipts {

  private static final byte VERSION = 1;
  private static final int BODY_BYTES = 1 + 8 + 8 + 4 + 8;
  private static final String PURPOSE = "hongbao.receipt.v1|";

  private final Sealer sealer;

  public SealedReceipts(Sealer sealer) {
    this.sealer = sealer;
  }

  @Override
  public String seal(GrabReceipt receipt) {
    ByteBuffer body =
        ByteBuffer.allocate(BODY_BYTES)
            .put(VERSION)
            .putLong(receipt.packetId())
            .putLong(receipt.amount().fen())
            .putInt(receipt.seq())
            .putLong(receipt.grabbedAt().toEpochMilli());
    return sealer.seal(body.array(), associatedData(receipt.userId()));
  }

  @Override
  public Optional<GrabReceipt> open(String token, String userId) {
    return sealer
        .open(token, associatedData(userId))
        .filter(body -> body.length == BODY_BYTES && body[0] == VERSION)
        .flatMap(body -> decode(ByteBuffer.wrap(body, 1, BODY_BYTES - 1), userId));
  }

  private static Optional<GrabReceipt> decode(ByteBuffer body, String userId) {
    long packetId = body.getLong();
    long fen = body.getLong();
    int seq = body.getInt();
    long millis = body.getLong();
    if (fen <= 0 || seq < 1) {
      return Optional.empty();
    }
    return Optional.of(
        new GrabReceipt(packetId, userId, Amount.fen(fen), seq, Instant.ofEpochMilli(millis)));
  }

  private static byte[] associatedData(String userId) {
    return (PURPOSE + userId).getBytes(StandardCharsets.UTF_8);
  }
}
