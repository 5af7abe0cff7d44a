import { makeHello } from "shared/module";

print(makeHello("main.client.ts"));
