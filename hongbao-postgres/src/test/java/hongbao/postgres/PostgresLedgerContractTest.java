package hongbao.postgres;

import hongbao.core.ledger.Ledger;
import hongbao.core.packet.PacketStore;
import hongbao.core.reconcile.LedgerAudit;
import hongbao.testkit.LedgerContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * PostgreSQL's ledger held to the same contract as the simulator's in-memory books: what the
 * simulator proves over those books holds over these.
 */
class PostgresLedgerContractTest extends LedgerContract {

  static TestSchema db;

  @BeforeAll
  static void openSchema() {
    db = TestDatabase.freshSchema();
  }

  @AfterAll
  static void dropSchema() {
    db.close();
  }

  @Override
  protected Ledger ledger() {
    return db.ledger;
  }

  @Override
  protected PacketStore packets() {
    return db.packets;
  }

  @Override
  protected LedgerAudit audit() {
    return db.audit;
  }
}
