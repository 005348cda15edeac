-- Legacy ERP (MySQL, MariaDB). The vendor's tables as its installer creates
-- them: the SQL Server original's names and types,
-- no foreign keys, several companies in one database.

CREATE TABLE CompanyMaster (
    CompCd   SMALLINT PRIMARY KEY,
    CompNm   VARCHAR(100) NOT NULL,
    ShortNm  VARCHAR(10),
    GSTIN    VARCHAR(15),
    Addr1    VARCHAR(100),
    City     VARCHAR(40),
    StateCd  CHAR(2),
    FYFrom   DATE,
    ActiveYN CHAR(1) DEFAULT 'Y'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE GodownMaster (
    CompCd SMALLINT NOT NULL,
    GdnCd  VARCHAR(6) NOT NULL,
    GdnNm  VARCHAR(40),
    RejGdn CHAR(1) DEFAULT 'N',
    PRIMARY KEY (CompCd, GdnCd)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE ItemMaster (
    ItmId      INTEGER PRIMARY KEY,
    Company    VARCHAR(100),
    ItmCd      VARCHAR(20),
    ItmNm      VARCHAR(100),
    ShortNm    VARCHAR(100),
    GrpNm      VARCHAR(40),
    UOM        VARCHAR(8),
    AltUOM     VARCHAR(8),
    ConvFact   INTEGER,
    Rt         DECIMAL(12,2),
    MRP        DECIMAL(12,2),
    TaxPer     DECIMAL(5,2),
    HSNCd      VARCHAR(10),
    ReOrdLvl   DECIMAL(12,3),
    CreatedOn  DATETIME,
    ModifiedOn DATETIME
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE INDEX IX_ItemMaster_ItmCd ON ItemMaster (ItmCd);

CREATE TABLE ItemStock (
    CompCd  SMALLINT NOT NULL,
    ItmId   INTEGER NOT NULL,
    GdnCd   VARCHAR(6) NOT NULL,
    ClQty   DECIMAL(14,3),
    WIPQty  DECIMAL(14,3),
    LastUpd DATETIME,
    PRIMARY KEY (CompCd, ItmId, GdnCd)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE PartyMaster (
    PartyCd   VARCHAR(10) PRIMARY KEY,
    PartyNm   VARCHAR(100),
    Alias     VARCHAR(60),
    PartyType VARCHAR(4),
    Mob       VARCHAR(20),
    Email     VARCHAR(60),
    Addr1     VARCHAR(100),
    City      VARCHAR(40),
    GSTIN     VARCHAR(15),
    CrLmt     DECIMAL(14,2),
    CrDays    SMALLINT,
    PayMode   VARCHAR(10),
    CreatedOn DATETIME
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE PartyBal (
    CompCd    SMALLINT NOT NULL,
    PartyCd   VARCHAR(10) NOT NULL,
    OpBal     DECIMAL(14,2),
    DrTot     DECIMAL(14,2),
    CrTot     DECIMAL(14,2),
    ClBal     DECIMAL(14,2),
    LastTxnDt DATE,
    PRIMARY KEY (CompCd, PartyCd)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE SupplierMaster (
    SupCd        VARCHAR(10) PRIMARY KEY,
    SupNm        VARCHAR(100),
    SupplerPhone VARCHAR(20),
    GSTIN        VARCHAR(15),
    City         VARCHAR(40)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE SalesOrdHdr (
    OrdId      INTEGER PRIMARY KEY,
    CompCd     SMALLINT NOT NULL,
    OrdNo      VARCHAR(20),
    OrdDt      DATE,
    PartyCd    VARCHAR(10),
    SmanCd     VARCHAR(6),
    AMT        DECIMAL(14,2),
    StatCd     SMALLINT,
    Remarks    VARCHAR(200),
    CreatedOn  DATETIME,
    ModifiedOn DATETIME,
    ModifiedBy VARCHAR(20)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE INDEX IX_SalesOrdHdr_ModifiedOn ON SalesOrdHdr (ModifiedOn);
CREATE INDEX IX_SalesOrdHdr_CompDt ON SalesOrdHdr (CompCd, OrdDt);
CREATE INDEX IX_SalesOrdHdr_OrdNo ON SalesOrdHdr (OrdNo);

CREATE TABLE SalesOrdDtl (
    OrdId  INTEGER NOT NULL,
    SrNo   SMALLINT NOT NULL,
    ItmId  INTEGER,
    Qty    DECIMAL(12,3),
    Rt     DECIMAL(12,2),
    TaxPer DECIMAL(5,2),
    Amt    DECIMAL(14,2),
    TaxAmt DECIMAL(14,2),
    PRIMARY KEY (OrdId, SrNo)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE BillRegister (
    CompCd  SMALLINT NOT NULL,
    BillNo  VARCHAR(20) NOT NULL,
    BillDt  DATE,
    PartyCd VARCHAR(10),
    OrdId   INTEGER,
    Amount  DECIMAL(14,2),
    BalAmt  DECIMAL(14,2),
    DueDt   DATE,
    CancYN  CHAR(1) DEFAULT 'N',
    PRIMARY KEY (CompCd, BillNo)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE INDEX IX_BillRegister_Party ON BillRegister (CompCd, PartyCd);

CREATE TABLE Receipts (
    RcptId    INTEGER PRIMARY KEY,
    CompName  VARCHAR(100),
    RcptNo    VARCHAR(20),
    RcptDt    DATE,
    PartyCd   VARCHAR(10),
    RcptAmt   DECIMAL(14,2),
    PayMode   VARCHAR(10),
    RefNo     VARCHAR(30),
    BankNm    VARCHAR(40),
    Narration VARCHAR(200),
    EntryOn   DATETIME
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE INDEX IX_Receipts_RcptDt ON Receipts (RcptDt);

CREATE TABLE GRNHdr (
    CompCd   SMALLINT NOT NULL,
    GRNNo    VARCHAR(20) NOT NULL,
    GRNDt    DATE,
    SupCd    VARCHAR(10),
    SupInvNo VARCHAR(20),
    SupInvDt DATE,
    PRIMARY KEY (CompCd, GRNNo)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE GRNDtl (
    CompCd SMALLINT NOT NULL,
    GRNNo  VARCHAR(20) NOT NULL,
    SrNo   SMALLINT NOT NULL,
    ItmId  INTEGER,
    RecQty DECIMAL(12,3),
    AccQty DECIMAL(12,3),
    RejQty DECIMAL(12,3),
    Rt     DECIMAL(12,2),
    PRIMARY KEY (CompCd, GRNNo, SrNo)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE AuditTrail (
    LogId   INTEGER PRIMARY KEY,
    TblNm   VARCHAR(40),
    KeyVal  VARCHAR(40),
    Action  CHAR(1),
    OldVal  VARCHAR(200),
    NewVal  VARCHAR(200),
    UserId  VARCHAR(20),
    LogTime DATETIME
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE SalesOrdHdr_Bak (
    OrdId      INTEGER,
    CompCd     SMALLINT,
    OrdNo      VARCHAR(20),
    OrdDt      DATE,
    PartyCd    VARCHAR(10),
    SmanCd     VARCHAR(6),
    AMT        DECIMAL(14,2),
    StatCd     SMALLINT,
    Remarks    VARCHAR(200),
    CreatedOn  DATETIME,
    ModifiedOn DATETIME,
    ModifiedBy VARCHAR(20)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE TmpStkUpload (
    ItmCd  VARCHAR(20),
    ItmNm  VARCHAR(100),
    ClQty  DECIMAL(14,3),
    UpldOn DATETIME
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
