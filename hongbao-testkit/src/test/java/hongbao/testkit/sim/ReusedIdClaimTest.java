package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.ClaimOutcome;
import hongbao.core.grab.ClaimService;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabReceipt;
import hongbao.core.money.Amount;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * After the ledger is restored from a backup it hands out packet ids again. A receipt of a grab of
 * the older packet under such an id names that packet's creation, which is not the ledger's
 * packet's: its claim is refused and named, and the newer packet's money stays its own. The same
 * receipt naming the ledger's own packet is honoured.
 */
class ReusedIdClaimTest {

  private final World world = new World(17, LedgerVariant.of("faithful")::create);

  private ClaimService claims(GrabReceipt receipt) {
    return new ClaimService(
        new OneReceipt(receipt),
        world.packets,
        world.store,
        world.arming,
        world.ledger,
        world.clock);
  }

  @Test
  void aReceiptOfAnOlderPacketUnderTheId_isRefused_andNamed_andPaysNothing() {
    long packet = world.aliceSendsFixed(300, 3);
    Instant created = world.packets.find(packet).orElseThrow().createdAt();
    var older =
        new GrabReceipt(
            packet,
            "bob",
            Amount.fen(100),
            1,
            World.START.plusSeconds(1),
            created.minus(Duration.ofHours(1)));

    assertThat(claims(older).claim(packet, "bob", "receipt"))
        .isInstanceOf(ClaimOutcome.Refused.class);

    assertThat(world.packets.paidGrabs(packet)).isEmpty();
    assertThat(world.store.state(packet).orElseThrow().taken()).isZero();
    assertThat(world.auditor().reconcile().discrepancies())
        .singleElement()
        .asString()
        .startsWith("packet " + packet + ": receipt of bob for 100 fen refused: ")
        .contains("the ledger's packet under this id was created at");
  }

  @Test
  void aReceiptNamingTheLedgersPacket_isHonoured() {
    long packet = world.aliceSendsFixed(300, 3);
    var grabbed =
        (GrabOutcome.Grabbed) world.grab.grab(packet, "bob", null).toCompletableFuture().join();
    assertThat(grabbed.packetCreatedAt())
        .isEqualTo(
            Instant.ofEpochMilli(
                world.packets.find(packet).orElseThrow().createdAt().toEpochMilli()));
    var receipt =
        new GrabReceipt(
            packet, "bob", grabbed.amount(), grabbed.seq(), World.START, grabbed.packetCreatedAt());

    assertThat(claims(receipt).claim(packet, "bob", "receipt"))
        .isInstanceOf(ClaimOutcome.Recorded.class);
  }
}
