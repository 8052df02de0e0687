package hongbao.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * A schema per test class; after every test the books must balance, whatever the test did (the
 * reconciler's rule for every integration test).
 */
abstract class LedgerTestBase {

  static TestSchema db;

  @BeforeAll
  static void openSchema() {
    db = TestDatabase.freshSchema();
  }

  @AfterAll
  static void dropSchema() {
    db.close();
  }

  @AfterEach
  void booksBalance() {
    assertThat(db.audit.accountProblems()).isEmpty();
  }
}
