package hongbao.testkit;

import hongbao.core.grab.GrabStore;
import hongbao.core.ledger.Ledger;
import hongbao.core.packet.PacketStore;
import hongbao.core.payout.PayoutQueue;
import hongbao.core.reconcile.LedgerAudit;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Nested;

/** The in-memory ports held to the contracts the real adapters pass. */
class MemoryContractsTest {

  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

  @Nested
  class GrabStoreTest extends GrabStoreContract {
    final SimClock clock = new SimClock(T0);
    final MemoryPayoutQueue queue = new MemoryPayoutQueue(clock);
    final MemoryGrabStore store = new MemoryGrabStore(clock, queue, Duration.ofDays(1));

    @Override
    protected GrabStore store() {
      return store;
    }

    @Override
    protected PayoutQueue queue() {
      return queue;
    }

    @Override
    protected Instant start() {
      return T0;
    }
  }

  @Nested
  class PayoutQueueTest extends PayoutQueueContract {
    final SimClock clock = new SimClock(T0);
    final MemoryPayoutQueue queue = new MemoryPayoutQueue(clock);
    final MemoryGrabStore store = new MemoryGrabStore(clock, queue, Duration.ofDays(1));

    @Override
    protected GrabStore store() {
      return store;
    }

    @Override
    protected PayoutQueue queue() {
      return queue;
    }

    @Override
    protected Instant start() {
      return T0;
    }
  }

  @Nested
  class LedgerTest extends LedgerContract {
    final MemoryBooks books = new MemoryBooks();
    final MemoryLedger ledger = new MemoryLedger(books, new SimClock(T0));
    final MemoryPacketStore packets = new MemoryPacketStore(books);

    @Override
    protected Ledger ledger() {
      return ledger;
    }

    @Override
    protected PacketStore packets() {
      return packets;
    }

    @Override
    protected LedgerAudit audit() {
      return books;
    }
  }
}
