export declare const serverNodeArgs: string[];
export declare function serverNodeArgsFor(databaseUrl: string | undefined): string[];
export declare const serverEnv: Record<string, string>;
