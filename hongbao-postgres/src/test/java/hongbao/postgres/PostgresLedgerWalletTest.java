package hongbao.postgres;

import static hongbao.postgres.TestSchema.task;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import hongbao.core.ledger.EntryKind;
import hongbao.core.ledger.Wallet;
import hongbao.core.ledger.WalletEntry;
import hongbao.core.ledger.WalletSnapshot;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class PostgresLedgerWalletTest extends LedgerTestBase {

  @Test
  void wallet_neverFunded_hasZeroBalanceAndNoEntries() {
    String nobody = user("nobody");

    Wallet wallet = db.ledger.wallet(nobody, 100);

    assertThat(wallet.userId()).isEqualTo(nobody);
    assertThat(wallet.balance()).isEqualTo(Amount.ZERO);
    assertThat(wallet.entries()).isEmpty();
  }

  @Test
  void wallet_entries_areNewestFirstAndNegativeWhenMoneyLeft() {
    String alice = user("alice");
    String bob = user("bob");
    db.topUp(alice, 10_000);
    db.topUp(bob, 5_000);
    Packet mine = db.send(alice, 3_000, 3);
    Packet bobs = db.send(bob, 2_000, 2);
    db.ledger.pay(List.of(task(bobs, alice, 1_200)));
    db.ledger.refund(mine.id(), Amount.fen(3_000), Instant.parse("2026-11-23T00:00:00Z"));

    Wallet wallet = db.ledger.wallet(alice, 100);

    assertThat(wallet.balance()).isEqualTo(Amount.fen(10_000 - 3_000 + 1_200 + 3_000));
    assertThat(wallet.entries())
        .extracting(WalletEntry::kind, e -> e.amount().fen(), WalletEntry::packetId)
        .containsExactly(
            tuple(EntryKind.REFUND, 3_000L, mine.id()),
            tuple(EntryKind.GRAB, 1_200L, bobs.id()),
            tuple(EntryKind.SEND, -3_000L, mine.id()),
            tuple(EntryKind.TOPUP, 10_000L, null));
    assertThat(wallet.entries()).allSatisfy(e -> assertThat(e.at()).isNotNull());
    assertThat(wallet.entries().stream().mapToLong(e -> e.amount().fen()).sum())
        .isEqualTo(wallet.balance().fen());
  }

  @Test
  void wallet_limit_keepsTheNewestEntries() {
    String carol = user("carol");
    for (int i = 1; i <= 5; i++) {
      db.topUp(carol, i);
    }

    Wallet wallet = db.ledger.wallet(carol, 2);

    assertThat(wallet.balance()).isEqualTo(Amount.fen(15));
    assertThat(wallet.entries()).extracting(e -> e.amount().fen()).containsExactly(5L, 4L);
  }

  /**
   * Shares are paid one by one while readers ask which of them are paid. Each read must account for
   * every share exactly once: the balance plus the shares it calls unpaid is always the whole. Two
   * separate reads (balance, then the paid set) break this whenever a payment lands between them.
   */
  @Test
  void walletSnapshot_whilePaymentsLand_countsEveryShareOnce() throws Exception {
    String alice = user("alice");
    String bob = user("bob");
    int shares = 150;
    db.topUp(alice, 1_000_000);
    Map<Long, Long> fenByPacket = new HashMap<>();
    List<Packet> packets = new ArrayList<>();
    for (int i = 1; i <= shares; i++) {
      Packet packet = db.send(alice, i, 1);
      packets.add(packet);
      fenByPacket.put(packet.id(), (long) i);
    }
    long whole = fenByPacket.values().stream().mapToLong(Long::longValue).sum();
    AtomicBoolean paying = new AtomicBoolean(true);
    Callable<Integer> payer =
        () -> {
          try {
            for (Packet packet : packets) {
              db.ledger.pay(List.of(task(packet, bob, fenByPacket.get(packet.id()))));
            }
            return 0;
          } finally {
            paying.set(false);
          }
        };
    Callable<Integer> reader =
        () -> {
          int midway = 0;
          while (paying.get()) {
            WalletSnapshot read = db.ledger.wallet(bob, 0, fenByPacket.keySet());
            long unpaid =
                fenByPacket.entrySet().stream()
                    .filter(e -> !read.paidPackets().contains(e.getKey()))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            assertThat(read.wallet().balance().fen() + unpaid)
                .as("balance + unpaid shares with %d paid", read.paidPackets().size())
                .isEqualTo(whole);
            if (!read.paidPackets().isEmpty() && read.paidPackets().size() < shares) {
              midway++;
            }
          }
          return midway;
        };

    List<Race.Result<Integer>> results = Race.run(List.of(payer, reader, reader));

    assertThat(results).allSatisfy(r -> assertThat(r.failure()).isNull());
    assertThat(results.get(1).value() + results.get(2).value())
        .as("reads taken while the payments were landing")
        .isPositive();
    assertThat(db.ledger.wallet(bob, 0).balance()).isEqualTo(Amount.fen(whole));
  }
}
