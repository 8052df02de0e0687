package hongbao.core.withdrawal;

import java.util.List;

/**
 * Seam: before a withdrawal is debited, the caller's legal, not yet credited reward tokens are
 * credited at once ("forced credit"), so a reward still on its queue counts towards the balance.
 * The reward pipeline plugs in here; until it exists, {@link #NONE} credits nothing.
 */
@FunctionalInterface
public interface ForcedCredit {

  /** Credits what the tokens (and the server's own records of the user) hold; idempotent. */
  void credit(String userId, List<String> tokens);

  ForcedCredit NONE = (userId, tokens) -> {};
}
