/** Owned by `app/modules/files`. Created in 0015-files. */

export interface FilesTable {
  id: string;
  workspace_id: string;
  sha256: string;
  content_type: string;
  byte_size: number;
  width: number | null;
  height: number | null;
  filename: string;
  alt: string;
  created_at: string;
  updated_at: string;
}

export interface FilesTables {
  files: FilesTable;
}
