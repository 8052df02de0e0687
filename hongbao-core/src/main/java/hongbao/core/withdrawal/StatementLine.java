package hongbao.core.withdrawal;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * One line of the gateway's statement.
 *
 * @param paid true for SUCCESS, false for a final FAIL
 */
public record StatementLine(String outTradeNo, Amount amount, boolean paid, Instant at) {}
