package hongbao.core.reward;

import hongbao.core.money.Amount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A user's reward statement: the union of the reward book, the server's token copies and the LEGAL
 * tokens the client brings, newest first, one line per tradeNo. It only reads: nothing is credited
 * here. Amounts add up CASH rewards only (the others are not money).
 */
public final class RewardStatement {

  public static final int MAX_CLIENT_TOKENS = 500;
  public static final int MAX_ITEMS = 1_000;

  private final RewardTokens tokens;
  private final TokenStore tokenStore;
  private final TokenVerifier verifier;
  private final RewardBook book;
  private final RewardTypes types;

  public RewardStatement(
      RewardTokens tokens,
      TokenStore tokenStore,
      TokenVerifier verifier,
      RewardBook book,
      RewardTypes types) {
    this.tokens = tokens;
    this.tokenStore = tokenStore;
    this.verifier = verifier;
    this.book = book;
    this.types = types;
  }

  public record Item(Reward reward, boolean credited) {}

  public record Statement(List<Item> items, Amount pendingAmount, Amount creditedAmount) {}

  public Statement statement(String userId, List<String> clientTokens) {
    if (clientTokens.size() > MAX_CLIENT_TOKENS) {
      throw new IllegalArgumentException("at most " + MAX_CLIENT_TOKENS + " tokens");
    }
    // The copies before the book, as TokenVerifier asks: crediting writes the book first and drops
    // the copy after, so a reward credited between the two reads is in the book. Read the other
    // way round, it was in neither and left the statement.
    var pending = new ArrayList<>(tokenStore.pending(userId, MAX_CLIENT_TOKENS));
    pending.addAll(clientTokens);
    Map<String, Item> items = new LinkedHashMap<>();
    for (RewardRecord record : book.byUser(userId, MAX_ITEMS)) {
      items.put(
          record.reward().tradeNo(),
          new Item(record.reward(), record.status() == RewardRecord.Status.CREDITED));
    }
    for (String token : pending) {
      tokens
          .open(token, userId)
          .filter(r -> !items.containsKey(r.tradeNo()))
          .map(verifier::judge)
          .filter(v -> v.validity() == Validity.LEGAL)
          .ifPresent(v -> items.put(v.reward().tradeNo(), new Item(v.reward(), v.credited())));
    }
    List<Item> sorted = new ArrayList<>(items.values());
    sorted.sort(
        Comparator.comparing((Item i) -> i.reward().awardedAt())
            .reversed()
            .thenComparing(i -> i.reward().tradeNo()));
    Amount pendingAmount = Amount.ZERO;
    Amount creditedAmount = Amount.ZERO;
    for (Item item : sorted) {
      boolean cash =
          types.find(item.reward().type()).map(t -> t.kind() == RewardKind.CASH).orElse(false);
      if (cash && item.credited()) {
        creditedAmount = creditedAmount.plus(item.reward().amount());
      } else if (cash) {
        pendingAmount = pendingAmount.plus(item.reward().amount());
      }
    }
    return new Statement(sorted, pendingAmount, creditedAmount);
  }
}
