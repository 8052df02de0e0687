package hongbao.postgres;

import static hongbao.postgres.TestSchema.task;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import hongbao.core.ledger.EntryKind;
import hongbao.core.ledger.Wallet;
import hongbao.core.ledger.WalletEntry;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import java.time.Instant;
import java.util.List;
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
}
