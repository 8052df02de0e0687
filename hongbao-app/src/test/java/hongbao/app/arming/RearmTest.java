package hongbao.app.arming;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.app.Parts;
import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.http.PacketIds;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A paid-for packet whose arming never happened (the instance died right after the ledger commit)
 * is armed by the re-armer, or on the first grab that finds it missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RearmTest {

  private TestService service;
  private final PacketIds ids = new PacketIds(PacketIds.DEFAULT_ALPHABET);

  @BeforeAll
  void start() {
    service = TestService.start(Backends.embedded(), Map.of(), false);
  }

  @AfterAll
  void stop() {
    service.close();
  }

  /** Funds a packet in the ledger only, as if the process died before arming it. */
  private Packet fundedButUnarmed(String sender, Instant createdAt) {
    Parts parts = service.hongbao().parts();
    long id = parts.database().ledger().nextPacketId();
    var packet =
        new Packet(
            id,
            sender,
            PacketType.LUCKY,
            Amount.fen(500),
            5,
            null,
            null,
            List.of(),
            createdAt,
            createdAt.plus(Duration.ofMinutes(10)));
    parts
        .database()
        .ledger()
        .send(
            packet,
            new IdempotencyKey(sender, "send", "unarmed-" + id, "digest"),
            new StoredAnswer("digest", "CREATED", "{}"));
    return packet;
  }

  @Test
  void unarmedPacket_isArmedByTheRearmer_andByAGrabThatMissesIt() {
    Api api = service.api();
    String sender = "rearm-" + System.nanoTime();
    api.topUp(sender, 1000);
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    Packet old = fundedButUnarmed(sender, now.minusSeconds(10));
    Packet fresh = fundedButUnarmed(sender, now);
    Parts parts = service.hongbao().parts();
    assertThat(parts.store().state(old.id())).isEmpty();

    assertThat(parts.rearmer().rearmOnce()).isGreaterThanOrEqualTo(1);
    assertThat(parts.store().state(old.id())).get().extracting(s -> s.count()).isEqualTo(5);

    var grab = api.grab(api.token("rearm-grabber-" + System.nanoTime()), ids.encode(fresh.id()));
    assertThat(grab.status()).isEqualTo(200);
    assertThat(grab.json().getString("outcome")).isEqualTo("GRABBED");
    service.assertReconciledAfterSweeping();
  }
}
