package hongbao.postgres;

import static hongbao.postgres.TestSchema.T0;
import static hongbao.postgres.TestSchema.task;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A schema per test: the sweeper and rearmer queries see every packet of the database. */
class PostgresPacketStoreTest {

  private TestSchema db;
  private String alice;

  @BeforeEach
  void openSchema() {
    db = TestDatabase.freshSchema();
    alice = user("alice");
    db.topUp(alice, 1_000_000);
  }

  @AfterEach
  void dropSchema() {
    assertThat(db.audit.accountProblems()).isEmpty();
    db.close();
  }

  @Test
  void find_returnsThePacketAsSent() {
    Packet exclusive =
        new Packet(
            db.ledger.nextPacketId(),
            alice,
            PacketType.EXCLUSIVE,
            Amount.fen(200),
            2,
            null,
            "恭喜发财",
            List.of("bob", "carol"),
            Instant.parse("2026-11-21T08:00:00.123456Z"),
            Instant.parse("2026-11-22T08:00:00.123456Z"));
    db.send(exclusive);

    assertThat(db.packets.find(exclusive.id())).contains(exclusive);
    assertThat(db.packets.find(exclusive.id() + 1_000)).isEmpty();
  }

  @Test
  void sentBy_pagesNewestFirstBelowTheCursor() {
    Packet first = db.send(alice, 100, 1);
    Packet second = db.send(alice, 100, 1);
    Packet third = db.send(alice, 100, 1);
    db.topUp("someone-else", 100);
    db.send("someone-else", 100, 1);

    assertThat(db.packets.sentBy(alice, null, 2))
        .extracting(Packet::id)
        .containsExactly(third.id(), second.id());
    assertThat(db.packets.sentBy(alice, second.id(), 2))
        .extracting(Packet::id)
        .containsExactly(first.id());
  }

  @Test
  void paidTo_listsPacketsThatPaidTheUserNewestFirst() {
    String bob = user("bob");
    Packet first = db.send(alice, 100, 2);
    Packet second = db.send(alice, 100, 2);
    Packet unpaid = db.send(alice, 100, 2);
    db.ledger.pay(List.of(task(second, bob, 50), task(first, bob, 50), task(first, "x", 50)));

    assertThat(db.packets.paidTo(bob, null, 10))
        .containsExactly(second.id(), first.id())
        .doesNotContain(unpaid.id());
    assertThat(db.packets.paidTo(bob, second.id(), 10)).containsExactly(first.id());
  }

  @Test
  void unarmed_listsUnexpiredPacketsOldestFirstUntilMarkedArmed() {
    Packet older = db.send(db.packet(alice, 100, 1, T0, Duration.ofHours(1)));
    Packet newer = db.send(db.packet(alice, 100, 1, T0.plusSeconds(10), Duration.ofHours(1)));
    Packet expired = db.send(db.packet(alice, 100, 1, T0, Duration.ofSeconds(30)));
    Packet tooFresh = db.send(db.packet(alice, 100, 1, T0.plusSeconds(59), Duration.ofHours(1)));
    Instant now = T0.plusSeconds(60);

    assertThat(db.packets.unarmed(now.minusSeconds(5), now, 10))
        .extracting(Packet::id)
        .containsExactly(older.id(), newer.id())
        .doesNotContain(expired.id(), tooFresh.id());

    db.packets.markArmed(older.id());

    assertThat(db.packets.unarmed(now.minusSeconds(5), now, 10))
        .extracting(Packet::id)
        .containsExactly(newer.id());
  }

  @Test
  void claimExpired_listsExpiredOpenPacketsOldestExpiryFirstUntilRefunded() {
    Packet later = db.send(db.packet(alice, 100, 1, T0, Duration.ofMinutes(2)));
    Packet sooner = db.send(db.packet(alice, 100, 1, T0, Duration.ofMinutes(1)));
    Packet open = db.send(db.packet(alice, 100, 1, T0, Duration.ofHours(1)));
    Instant now = T0.plus(Duration.ofMinutes(2));

    // Claimed until now: a claim that lapses at once, so each call sees every such packet.
    assertThat(db.packets.claimExpired(now, now, 10))
        .extracting(Packet::id)
        .containsExactly(sooner.id(), later.id())
        .doesNotContain(open.id());

    db.ledger.refund(sooner.id(), Amount.fen(100), now);

    assertThat(db.packets.claimExpired(now, now, 10))
        .extracting(Packet::id)
        .containsExactly(later.id());
  }

  /**
   * Sweepers racing for expired packets, as one per instance does: each packet goes to one claim,
   * none is waited for, and a claim that lapses, or is given back, lets the packet be claimed
   * again.
   */
  @Test
  void claimExpired_racing_givesEachPacketToOneClaim_untilItLapsesOrIsGivenBack() throws Exception {
    Instant now = T0.plus(Duration.ofMinutes(5));
    var expired = new java.util.HashSet<Long>();
    for (int i = 0; i < 60; i++) {
      expired.add(db.send(db.packet(alice, 100, 1, T0, Duration.ofMinutes(1))).id());
    }
    Instant until = now.plusSeconds(30);
    var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    var claims = new ArrayList<java.util.concurrent.Future<List<Packet>>>();
    for (int sweeper = 0; sweeper < 8; sweeper++) {
      claims.add(pool.submit(() -> db.packets.claimExpired(now, until, 10)));
    }
    var claimed = new ArrayList<Long>();
    for (var claim : claims) {
      claim.get().forEach(p -> claimed.add(p.id()));
    }
    pool.shutdown();
    assertThat(claimed).as("no packet claimed twice").doesNotHaveDuplicates();
    assertThat(expired).containsAll(claimed);
    assertThat(db.packets.claimExpired(now, until, 100))
        .extracting(Packet::id)
        .as("the rest, and only the rest")
        .containsExactlyInAnyOrderElementsOf(
            expired.stream().filter(id -> !claimed.contains(id)).toList());

    db.packets.releaseClaims(claimed.subList(0, 5), now);
    assertThat(db.packets.claimExpired(now, until, 100))
        .as("a release names the claim it gives back: not this one")
        .isEmpty();
    db.packets.releaseClaims(claimed.subList(0, 5), until);
    assertThat(db.packets.claimExpired(now, until, 100))
        .extracting(Packet::id)
        .containsExactlyInAnyOrderElementsOf(claimed.subList(0, 5));
    assertThat(db.packets.claimExpired(until, until.plusSeconds(30), 100))
        .extracting(Packet::id)
        .as("every claim lapsed")
        .containsExactlyInAnyOrderElementsOf(expired);
  }

  @Test
  void paidGrabs_andRefunded_reportWhatTheLedgerPosted() {
    Packet packet = db.send(alice, 300, 3);
    assertThat(db.packets.paidGrabs(packet.id())).isEmpty();
    assertThat(db.packets.refunded(packet.id())).isEqualTo(Amount.ZERO);

    db.ledger.pay(List.of(task(packet, "bob", 100), task(packet, "carol", 120)));
    db.ledger.refund(packet.id(), Amount.fen(80), T0.plus(Duration.ofDays(2)));

    assertThat(db.packets.paidGrabs(packet.id()))
        .isEqualTo(Map.of("bob", Amount.fen(100), "carol", Amount.fen(120)));
    assertThat(db.packets.refunded(packet.id())).isEqualTo(Amount.fen(80));
  }
}
