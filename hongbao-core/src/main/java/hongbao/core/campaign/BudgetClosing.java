package hongbao.core.campaign;

import hongbao.core.money.Amount;

/**
 * Port: stops a campaign's reward budget from reserving anything more and tells what it reserved in
 * all (idempotent). What was reserved will be credited; the rest of the budget is unspent.
 */
@FunctionalInterface
public interface BudgetClosing {
  Amount close(String campaignId);
}
