package hongbao.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.grab.GrabReceipt;
import hongbao.core.money.Amount;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SealedReceiptsTest {

  private static final GrabReceipt RECEIPT =
      new GrabReceipt(42, "alice", Amount.fen(1234), 7, Instant.ofEpochMilli(1_790_000_000_123L));

  private final Sealer sealer = Sealer.generate();
  private final SealedReceipts receipts = new SealedReceipts(sealer);

  @Test
  void open_ofItsOwnReceipt_givesItBack() {
    String token = receipts.seal(RECEIPT);

    assertThat(receipts.open(token, "alice")).contains(RECEIPT);
    assertThat(token).hasSizeLessThan(100).matches("[A-Za-z0-9_-]+");
  }

  /** A receipt names its packet's creation; one that does not (sealed so before) still opens. */
  @Test
  void open_ofAReceiptNamingItsPacketsCreation_givesItBack_andOneWithoutStillOpens() {
    var named =
        new GrabReceipt(
            42,
            "alice",
            Amount.fen(1234),
            7,
            Instant.ofEpochMilli(1_790_000_000_123L),
            Instant.ofEpochMilli(1_789_999_000_456L));
    String token = receipts.seal(named);

    assertThat(receipts.open(token, "alice")).contains(named);
    assertThat(token).hasSizeLessThan(100).matches("[A-Za-z0-9_-]+");
    assertThat(receipts.open(receipts.seal(RECEIPT), "alice").orElseThrow().packetCreatedAt())
        .isNull();
  }

  /** A body whose length is not its version's is no receipt, whatever the seal. */
  @Test
  void open_ofABodyOfAnotherVersionsLength_isEmpty() {
    byte[] aad = "hongbao.receipt.v1|alice".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int version : new int[] {1, 2}) {
      for (int length : new int[] {29, 37}) {
        var body = java.nio.ByteBuffer.allocate(length);
        body.put((byte) version).putLong(42).putLong(1234).putInt(7).putLong(1_790_000_000_123L);
        boolean itsOwn = length == (version == 1 ? 29 : 37);
        assertThat(receipts.open(sealer.seal(body.array(), aad), "alice"))
            .as("version %d, %d bytes", version, length)
            .matches(opened -> opened.isPresent() == itsOwn);
      }
    }
  }

  @Test
  void open_forAnotherUser_isEmpty() {
    assertThat(receipts.open(receipts.seal(RECEIPT), "bob")).isEmpty();
  }

  @Test
  void open_ofATamperedOrTruncatedToken_isEmpty() {
    String token = receipts.seal(RECEIPT);
    char last = token.charAt(token.length() - 5);
    String tampered =
        token.substring(0, token.length() - 5)
            + (last == 'A' ? 'B' : 'A')
            + token.substring(token.length() - 4);

    assertThat(receipts.open(tampered, "alice")).isEmpty();
    assertThat(receipts.open(token.substring(0, token.length() - 1), "alice")).isEmpty();
    assertThat(receipts.open("", "alice")).isEmpty();
    assertThat(receipts.open("not a token!", "alice")).isEmpty();
    assertThat(receipts.open("A".repeat(Sealer.MAX_TOKEN_CHARS + 1), "alice")).isEmpty();
  }

  @Test
  void open_withAnotherKeyset_isEmpty() {
    String token = receipts.seal(RECEIPT);

    assertThat(new SealedReceipts(Sealer.generate()).open(token, "alice")).isEmpty();
  }

  @Test
  void rotation_sealsWithTheNewKey_andStillOpensTheOld() {
    String old = receipts.seal(RECEIPT);
    Sealer rotated = sealer.rotate();
    String fresh = new SealedReceipts(rotated).seal(RECEIPT);

    assertThat(rotated.keys()).isEqualTo(2);
    assertThat(new SealedReceipts(rotated).open(old, "alice")).contains(RECEIPT);
    assertThat(new SealedReceipts(rotated).open(fresh, "alice")).contains(RECEIPT);
    assertThat(receipts.open(fresh, "alice")).as("the old keyset lacks the new key").isEmpty();
  }

  @Test
  void keysetJson_roundTrips() {
    Sealer reloaded = Sealer.fromKeysetJson(sealer.rotate().keysetJson());

    assertThat(new SealedReceipts(reloaded).open(receipts.seal(RECEIPT), "alice"))
        .contains(RECEIPT);
    assertThatThrownBy(() -> Sealer.fromKeysetJson("{}"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
