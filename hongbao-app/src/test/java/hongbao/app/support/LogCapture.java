package hongbao.app.support;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Everything logged, by any logger, while it is open. */
public final class LogCapture implements AutoCloseable {

  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  public LogCapture() {
    appender.start();
    root.addAppender(appender);
  }

  /** The events so far; the appender appends under its own lock. */
  public List<ILoggingEvent> events() {
    synchronized (appender) {
      return List.copyOf(appender.list);
    }
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    appender.stop();
  }
}
