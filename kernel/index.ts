export { Bus, BusConnection, BusHandler, BusTopics, OtherTopic, Payload, TopicHandler } from "./Bus";
export { Joined, join, sleep, within } from "./cancellation";
export { DEFAULT_CLOSE_BUDGET, Kernel, KernelOptions, Service, StopResult } from "./Kernel";
export { LogLevel, LogRecord, LogSink, Logger, ScopedLogger, outputSink } from "./Logger";
export { SingleFlight } from "./SingleFlight";
export { DEFAULT_STEP_BUDGET, Deadline, Priority, Scheduler, SchedulerOptions, Wake } from "./Scheduler";
export { Timers } from "./Timers";
