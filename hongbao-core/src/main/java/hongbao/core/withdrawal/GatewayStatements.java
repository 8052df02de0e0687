package hongbao.core.withdrawal;

import java.time.LocalDate;
import java.util.List;

/** Port: the gateway's daily statement (对账单), what it says it did on one UTC day. */
public interface GatewayStatements {

  /**
   * Every out-trade-no the gateway settled on {@code day}.
   *
   * @throws StatementUnavailableException when the statement cannot be fetched
   */
  List<StatementLine> statement(LocalDate day);
}
