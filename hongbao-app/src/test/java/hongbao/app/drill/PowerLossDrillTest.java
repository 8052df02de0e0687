package hongbao.app.drill;

import static hongbao.app.drill.Drills.claim;
import static hongbao.app.drill.Drills.drained;
import static hongbao.app.drill.Drills.grab;
import static hongbao.app.drill.Drills.paid;
import static hongbao.app.drill.Drills.payouts;
import static hongbao.app.drill.Drills.sendFixed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.Parts;
import hongbao.app.support.Api;
import hongbao.app.support.TestService;
import hongbao.core.money.Amount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drill "power-loss": Redis loses writes it had acknowledged. Its AOF is cut back to an earlier
 * point (what a machine crash inside the fsync window, or a failover to a lagging replica, leaves)
 * and it restarts from that: grabs the ledger has paid are gone from Redis with their shares back
 * in the pool, and grabs not yet paid are gone entirely.
 *
 * <p>After the restart the repair puts the paid grabs back from the ledger, the receipts of the
 * unpaid ones are claimed, and nobody holds two shares, no packet pays beyond its books, and the
 * reconciler finds nothing.
 */
class PowerLossDrillTest {

  private static final int PACKETS = 3;
  private static final int COUNT = 40;
  private static final long SHARE = 25;

  private DrillRig rig;
  private TestService service;

  @BeforeEach
  void start() {
    rig = DrillRig.start("power-loss");
    service = rig.service;
  }

  @AfterEach
  void stop() {
    rig.close();
  }

  @Test
  void powerLoss_paidGrabsAreRestored_unpaidOnesClaimedByReceipt_noShareSoldTwice() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "pl-sender-" + run;
    api.topUp(sender, PACKETS * COUNT * SHARE);
    List<String> packets = new ArrayList<>();
    for (int p = 0; p < PACKETS; p++) {
      packets.add(sendFixed(api, sender, COUNT * SHARE, COUNT, 600));
    }
    // Phase A (survives): 20 grabs a packet, paid.
    grabAll(api, packets, run, 0, 20);
    drained(parts);
    long survivingBytes = rig.aofBytes();

    // Phase B (lost from Redis, already paid): 10 more grabs a packet.
    grabAll(api, packets, run, 20, 30);
    drained(parts);
    // Phase C (lost entirely, never paid): 5 more grabs a packet; their users keep the receipts.
    payouts(parts, false);
    Map<String, String> receipts = new HashMap<>();
    for (String packet : packets) {
      for (int u = 30; u < 35; u++) {
        JsonReceipt grabbed = JsonReceipt.of(grab(api, user(run, u), packet));
        receipts.put(packet + "/" + user(run, u), grabbed.receipt());
      }
    }
    for (String packet : packets) {
      assertThat(paid(parts, packet)).hasSize(30);
    }

    rig.powerLoss(survivingBytes);

    // The repair runs once it sees the new Redis (the workers check every second).
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> assertThat(parts.repair().checkOnce()).isZero());
    payouts(parts, true);

    for (String packet : packets) {
      // Phase B users keep the share the ledger paid them.
      for (int u = 20; u < 30; u++) {
        var again = grab(api, user(run, u), packet);
        assertThat(again.getString("outcome")).isEqualTo("ALREADY_GRABBED");
        assertThat(again.getLong("amount")).isEqualTo(SHARE);
      }
      // Phase C users claim the grab Redis forgot. (A worker that polled a phase C batch just
      // before payouts were switched off held it in memory and pays it once they are on again:
      // that grab is PAID, the others RECOVERED.)
      for (int u = 30; u < 35; u++) {
        var claimed = claim(api, user(run, u), packet, receipts.get(packet + "/" + user(run, u)));
        assertThat(claimed.status()).as(claimed.raw()).isEqualTo(200);
        assertThat(claimed.json().getString("outcome")).isIn("RECOVERED", "PAID");
        assertThat(claimed.json().getLong("amount")).isEqualTo(SHARE);
      }
      // New users get exactly what is left, not one share more.
      int grabbed = 0;
      for (int u = 100; u < 100 + COUNT; u++) {
        if ("GRABBED".equals(grab(api, user(run, u), packet).getString("outcome"))) {
          grabbed++;
        }
      }
      assertThat(grabbed).isEqualTo(COUNT - 35);
    }
    drained(parts);
    for (String packet : packets) {
      Map<String, Amount> paid = paid(parts, packet);
      assertThat(paid).hasSize(COUNT);
      assertThat(paid.values()).allMatch(a -> a.equals(Amount.fen(SHARE)));
    }
    service.assertReconciled();
  }

  private static void grabAll(Api api, List<String> packets, String run, int from, int to) {
    for (String packet : packets) {
      for (int u = from; u < to; u++) {
        assertThat(grab(api, user(run, u), packet).getString("outcome")).isEqualTo("GRABBED");
      }
    }
  }

  private static String user(String run, int i) {
    return "pl-" + run + "-" + i;
  }

  /** The receipt of a GRABBED answer. */
  private record JsonReceipt(String receipt) {
    static JsonReceipt of(io.vertx.core.json.JsonObject grabbed) {
      assertThat(grabbed.getString("outcome")).isEqualTo("GRABBED");
      assertThat(grabbed.getString("receipt")).isNotBlank();
      return new JsonReceipt(grabbed.getString("receipt"));
    }
  }
}
