package hongbao.core.reward;

import java.util.List;

/**
 * Port: the failure stream — rewards an issuer refused for good, and events that could not be
 * handled after many deliveries. The reconciler reports every entry; an operator settles them.
 */
public interface FailureLog {

  void fail(Reward reward, String reason);

  /** Entries, oldest first, one line each, at most {@code max}. */
  List<String> entries(int max);

  /** The tradeNos in the stream, at most {@code max}. */
  List<String> tradeNos(int max);
}
