package hongbao.testkit.sim;

import hongbao.core.ledger.Ledger;
import hongbao.testkit.MemoryBooks;
import hongbao.testkit.MemoryLedger;
import java.time.Clock;
import java.util.Arrays;
import java.util.function.BiFunction;

/**
 * Which ledger a run uses: the faithful in-memory one, or one with a planted bug that exists only
 * to prove the simulator finds bugs (a simulator that never fails proves nothing).
 */
public enum LedgerVariant {
  FAITHFUL("faithful", MemoryLedger::new),

  /** Pays a task again when it is delivered again: what the ledger's unique transfer key stops. */
  PAYS_TWICE("pays-twice", PaysTwiceOnRedelivery::new);

  private final String key;
  private final BiFunction<MemoryBooks, Clock, Ledger> factory;

  LedgerVariant(String key, BiFunction<MemoryBooks, Clock, Ledger> factory) {
    this.key = key;
    this.factory = factory;
  }

  public String key() {
    return key;
  }

  Ledger create(MemoryBooks books, Clock clock) {
    return factory.apply(books, clock);
  }

  /** The variant named {@code key}; an unknown name is refused with the known ones. */
  public static LedgerVariant of(String key) {
    return Arrays.stream(values())
        .filter(v -> v.key.equals(key))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown ledger '%s'; known: %s"
                        .formatted(key, Arrays.stream(values()).map(LedgerVariant::key).toList())));
  }

  private static final class PaysTwiceOnRedelivery extends MemoryLedger {
    PaysTwiceOnRedelivery(MemoryBooks books, Clock clock) {
      super(books, clock);
    }

    @Override
    protected boolean skipsPaidTransfer() {
      return false;
    }
  }
}
